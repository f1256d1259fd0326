import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookStore

/// `skillbook resume RUN [--force] [--rerun-uncertain|--skip-uncertain] [--yes] [-i KEY=VALUE]… [--json]`
enum ResumeCommand: Command {
    static let spec = CommandSpec(
        name: "resume", summary: "Finish an interrupted or failed run from where it stopped.",
        usage: "RUN [--force] [--rerun-uncertain|--skip-uncertain] [--yes] [-i KEY=VALUE]... [--json]",
        options: [
            OptionSpec(names: ["--force"], help: "Resume even though the playbook file changed since the run started."),
            OptionSpec(
                names: ["--rerun-uncertain"],
                help: "Run again the calls that started but have no recorded result, even if not idempotent."),
            OptionSpec(names: ["--skip-uncertain"], help: "Count those calls as done (with no output) instead."),
            OptionSpec(names: ["-y", "--yes"], help: "Approve every confirmation (steps whose skill has confirm)."),
            OptionSpec(
                names: ["-i", "--input"], valueName: "KEY=VALUE",
                help: "Give a secret input again (the journal does not keep secrets).", repeatable: true),
            OptionSpec(names: ["--json"], help: "Print one JSON object per event on stdout; the last is run.finished."),
        ],
        positionals: 1...1,
        discussion: """
            RUN is a run id or any unique prefix of it (see 'skillbook runs'). The run continues with the
            inputs and playbook text it started with: steps and batches that completed are not made again,
            the first unfinished one runs next. A call that started but whose result was never recorded
            (the process died during it) runs again only if its skill is idempotent or read-only;
            otherwise you are asked, or, without a terminal, --rerun-uncertain or --skip-uncertain decides.
            A recorded output that held a secret was kept masked: a read-only call runs again to get it
            back; an action's is reused as it is (never done twice), and later steps see *** there.
            Refuses when the playbook file changed since (unless --force), when the run is still running
            in another process, or when it was being rolled back (use 'skillbook rollback RUN').
            Exit codes are those of 'skillbook run'.
            """,
        examples: ["skillbook resume 5c0e", "skillbook resume 5c0e --skip-uncertain -i token=…"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
        let console = invocation.console
        if arguments.flag("rerun-uncertain") && arguments.flag("skip-uncertain") {
            throw UsageError(message: "--rerun-uncertain and --skip-uncertain exclude each other", command: "resume")
        }
        let workspace = invocation.workspace(arguments)
        let registry = try workspace.registry()
        let journal = try workspace.journal()
        let runID = try journal.resolveRunID(arguments.positionals[0])
        guard let timeline = try journal.timeline(runID) else { throw JournalError(.notFound, "no run \(runID)") }
        let run = timeline.run
        try checkResumable(run, journal: journal)
        if !timeline.compensations.isEmpty {
            throw JournalError(
                .refused,
                "run \(runID) (\(run.playbook)) was being rolled back when it stopped; finish undoing it with "
                    + "'skillbook rollback \(JournalText.shortID(runID))'")
        }

        // The playbook: the file it ran from, unchanged (or changed, with --force).
        let (text, displayName) = try playbookText(run, timeline: timeline, force: arguments.flag("force"), workspace: workspace, console: console)
        guard
            let playbook = JournalCommandSupport.load(
                text, displayName: displayName, workspace: workspace, registry: registry, console: console)
        else { return 2 }
        guard playbook.name == run.playbook else {
            throw JournalError(
                .refused, "\(displayName) is now playbook '\(playbook.name)', but run \(runID) ran '\(run.playbook)'")
        }

        let inputs = try resumeInputs(run, playbook: playbook, arguments: arguments, environment: invocation.environment)
        let decisions = try await decide(try JournalCommandSupport.uncertainCalls(journal, runID, registry: registry), arguments: arguments, registry: registry, console: console)

        // Take the run: refuses when another process (a second resume) holds it.
        try journal.takeOver(runID, for: .resume) { current throws(JournalError) in
            try checkResumable(current, journal: journal)
        }
        let plan: ResumePlan
        do {
            var undecided: [CallKey] = []
            plan = try await journal.resumePlan(runID, isReadOnly: JournalCommandSupport.isReadOnly(registry)) { call in
                if let decision = decisions[call.key] { return decision }
                undecided.append(call.key)
                return .skip
            }
            guard undecided.isEmpty else {
                throw JournalError(.refused, "run \(runID) changed while resuming it was being prepared; try again")
            }
            if text != timeline.source { try journal.setSource(text, forRun: runID) }
            if !plan.maskedOutputs.isEmpty {
                let calls = plan.maskedOutputs.map(\.description).joined(separator: ", ")
                console.err(
                    "skillbook: note: the recorded output of \(calls) held a secret and was kept masked; it is not run again "
                        + "(it has effects), so later steps, and its undo if the run rolls back, see *** where the secret was")
            }
        } catch {
            try? journal.release(runID, status: run.status)
            throw error
        }

        var environment = EngineEnvironment.live
        environment.variables = invocation.environment
        let result = await RunCommand.perform(
            playbook, inputs: inputs, options: Engine.RunOptions(trigger: run.trigger, source: text, resume: (runID, plan)),
            registry: registry, environment: environment, confirmer: JournalCommandSupport.confirmer(arguments, console: console),
            recorder: journal, json: arguments.flag("json"), invocation)
        if !arguments.flag("json"), !result.outputs.isEmpty {
            console.out(JSONText.encode(.object(result.outputs), pretty: true))
        }
        return result.exitCode
    }

    /// Whether calling `skill` again is harmless: it is read-only or idempotent.
    static func isRepeatable(_ skill: String, registry: SkillRegistry) -> Bool {
        guard let descriptor = registry[skill]?.descriptor else { return false }
        return descriptor.idempotent || descriptor.kind == .query
    }

    /// Only a run that stopped before finishing can be resumed.
    static func checkResumable(_ run: JournalRun, journal: SQLiteJournal) throws(JournalError) {
        let short = JournalText.shortID(run.id)
        switch run.status {
        case .interrupted, .failed:
            return
        case .running:
            throw JournalError(.busy, journal.stillRunningMessage(run))
        case .succeeded, .succeededWithErrors:
            throw JournalError(.refused, "run \(run.id) (\(run.playbook)) already finished (\(run.status.rawValue)); nothing to resume")
        case .rolledBack:
            throw JournalError(
                .refused, "run \(run.id) (\(run.playbook)) was rolled back; nothing to resume (start it again with 'skillbook run')")
        case .rollbackIncomplete:
            throw JournalError(
                .refused,
                "run \(run.id) (\(run.playbook)) ended with an incomplete rollback; 'skillbook rollback \(short)' tries the undo again")
        }
    }

    /// The text to resume with: the run's file when unchanged; refuses a changed file unless `force`.
    static func playbookText(
        _ run: JournalRun, timeline: RunTimeline, force: Bool, workspace: Workspace, console: Console
    ) throws -> (text: String, displayName: String) {
        let short = JournalText.shortID(run.id)
        guard let path = run.file else {
            guard !timeline.source.isEmpty else {
                throw JournalError(.refused, "run \(run.id) recorded neither its playbook file nor its text; it cannot be resumed")
            }
            return (timeline.source, "\(run.playbook) (as recorded)")
        }
        let url = URL(fileURLWithPath: path)
        let displayName = workspace.displayPath(url)
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            guard !timeline.source.isEmpty else {
                throw JournalError(.refused, "cannot read \(displayName), the playbook of run \(run.id), and the journal has no copy")
            }
            console.err("skillbook: note: cannot read \(displayName); resuming with the playbook text recorded when the run started")
            return (timeline.source, "\(displayName) (as recorded)")
        }
        let hash = SourceHash.of(text)
        if hash != run.sourceHash {
            guard force else {
                throw JournalError(
                    .refused,
                    "\(displayName) changed since run \(short) started (recorded hash \(run.sourceHash), now \(hash)); "
                        + "resuming would mix two versions of the playbook. Put the file back, pass --force to resume "
                        + "with the file as it is now, or undo the run with 'skillbook rollback \(short)'")
            }
            console.err("skillbook: warning: \(displayName) changed since run \(short) started; resuming with the file as it is now (--force)")
        }
        return (text, displayName)
    }

    /// The run's recorded inputs, with the secret ones (which the journal redacted) given again by -i.
    static func resumeInputs(
        _ run: JournalRun, playbook: Playbook, arguments: ParsedArguments, environment: [String: String]
    ) throws -> ValueObject {
        let secret = Set(playbook.inputs.filter(\.schema.containsSecret).map(\.name))
        var given: [(key: String, text: String)] = []
        for text in arguments.all("input") {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw UsageError(message: "-i expects KEY=VALUE, got '\(text)'", command: "resume")
            }
            let key = String(text[..<equals])
            guard secret.contains(key) else {
                let names = secret.isEmpty ? "it has none" : "its secret inputs: \(secret.sorted().joined(separator: ", "))"
                throw UsageError(
                    message: "input '\(key)' is resumed as recorded; -i only gives secret inputs again (\(names))", command: "resume")
            }
            given.append((key, String(text[text.index(after: equals)...])))
        }
        var values = ValueObject()
        var missing: [String] = []
        for (key, value) in run.inputs {
            if secret.contains(key) {
                if !given.contains(where: { $0.key == key }) { missing.append(key) }
            } else {
                values[key] = value
            }
        }
        guard missing.isEmpty else {
            let flags = missing.map { "-i \($0)=VALUE" }.joined(separator: " ")
            throw UsageError(
                message: "run \(run.id)'s input\(missing.count == 1 ? "" : "s") \(missing.map { "'\($0)'" }.joined(separator: ", ")) "
                    + "\(missing.count == 1 ? "is" : "are") secret, so the journal did not keep \(missing.count == 1 ? "it" : "them"); "
                    + "give \(missing.count == 1 ? "it" : "them") again: skillbook resume \(JournalText.shortID(run.id)) \(flags)",
                command: "resume")
        }
        return try InputResolver(variables: environment).resolve(playbook, values: values, commandLine: given)
    }

    /// What to do with each call whose result was never recorded: re-run it when its skill is
    /// idempotent or read-only; otherwise the flags decide, or the user on a terminal.
    static func decide(
        _ uncertain: [JournalCall], arguments: ParsedArguments, registry: SkillRegistry, console: Console
    ) async throws -> [CallKey: ResumePlan.Uncertain] {
        var decisions: [CallKey: ResumePlan.Uncertain] = [:]
        var open: [JournalCall] = []
        for call in uncertain {
            if isRepeatable(call.skill, registry: registry) {
                decisions[call.key] = .rerun
            } else if arguments.flag("rerun-uncertain") {
                decisions[call.key] = .rerun
            } else if arguments.flag("skip-uncertain") {
                decisions[call.key] = .skip
            } else {
                open.append(call)
            }
        }
        guard !open.isEmpty else { return decisions }
        let list = open.map { "  " + JournalCommandSupport.describe($0) }.joined(separator: "\n")
        guard console.stdinIsTerminal else {
            throw JournalError(
                .refused,
                "\(open.count == 1 ? "a call" : "\(open.count) calls") of this run started but never recorded a result "
                    + "(the process stopped during \(open.count == 1 ? "it" : "them")), and running \(open.count == 1 ? "it" : "them") "
                    + "again could do it twice:\n\(list)\nCheck whether \(open.count == 1 ? "it" : "they") took effect, then pass "
                    + "--rerun-uncertain to run \(open.count == 1 ? "it" : "them") again or --skip-uncertain to count "
                    + "\(open.count == 1 ? "it" : "them") as done (with no output)")
        }
        for call in open {
            console.writeErr(
                "\n\(JournalCommandSupport.describe(call))\n"
                    + "started but never recorded a result: it may or may not have taken effect, and \(call.skill) is not idempotent.\n"
                    + "  r  run it again (it may then happen twice)\n  s  skip it (count it as done, with no output)\n"
                    + "  a  abort the resume\nChoice [r/s/a]: ")
            switch await console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() {
            case "r", "rerun": decisions[call.key] = .rerun
            case "s", "skip": decisions[call.key] = .skip
            default: throw JournalError(.refused, "resume aborted; nothing was run")
            }
        }
        return decisions
    }
}
