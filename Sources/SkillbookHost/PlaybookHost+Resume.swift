import Foundation
public import SkillbookCore
public import SkillbookRuntime

/// What to do with a call that started in the earlier process and recorded no result, when its
/// skill is neither idempotent nor read-only (such a call of a repeatable skill always runs again).
public enum UncertainCallPolicy: Sendable {
    /// Run them again (they may then happen twice).
    case rerun
    /// Count them as done, with no output.
    case skip
    /// Refuse the resume (`HostError.uncertainCalls`), nothing run: no one can decide.
    case refuse
    /// Ask for each call; `nil` aborts the resume (`HostError.resumeAborted`).
    case ask(@Sendable (JournalCall) async -> ResumePlan.Uncertain?)
}

/// Which run to resume, and how.
public struct ResumeRequest: Sendable {
    /// A run id or any unique prefix of it.
    public var run: String
    /// Resume even though the playbook file changed since the run started (with the file as it is now).
    public var force: Bool
    public var uncertain: UncertainCallPolicy
    /// Secret inputs given again (the journal does not keep them), as text coerced to the input's type.
    public var secretInputs: [(key: String, text: String)]
    /// Where the resume was asked (`cli`, `console`): recorded with the session it opens.
    public var trigger: RunTrigger

    public init(
        run: String, force: Bool = false, uncertain: UncertainCallPolicy = .refuse, secretInputs: [(key: String, text: String)] = [],
        trigger: RunTrigger = .cli
    ) {
        self.trigger = trigger
        self.run = run
        self.force = force
        self.uncertain = uncertain
        self.secretInputs = secretInputs
    }
}

extension PlaybookHost {
    /// Makes an interrupted or failed run ready to go on from where it stopped, with the inputs and
    /// playbook text it started with: completed steps, calls and batches are reused.
    ///
    /// Refuses (nothing run) when the run is still running, finished, rolled back or was being
    /// rolled back; when its playbook file changed (unless `force`); when a secret input is not
    /// given again; and when an uncertain call has no decision. Takes the run over in the journal.
    public func prepareResume(_ request: ResumeRequest, onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> PreparedRun {
        // The skills of the workspace the run was started in, from wherever it is resumed.
        if let run = try await recordedRun(request.run), let other = hostForRecordedWorkspace(of: run) {
            return try await other.prepareResume(request, onNotice: onNotice)
        }
        let registry = try await registry(onNotice)
        let journal = try openJournal()
        let runID = try await HostError.journaling { try await journal.resolveRunID(request.run) }
        guard let timeline = try await HostError.journaling({ try await journal.timeline(runID) }) else {
            throw .journal(JournalError(.notFound, "no run \(runID)"))
        }
        let run = timeline.run
        try RecordedRuns.checkResumable(run, journal: journal)
        if run.status == .waiting, try await approvalIsUndecided(runID, journal: journal) {
            throw .notResumable(run: run, reason: .waitsForApproval)
        }
        if !timeline.compensations.isEmpty { throw .notResumable(run: run, reason: .wasRollingBack) }

        let (text, displayName) = try resumeText(run, recordedSource: timeline.source, force: request.force, onNotice: onNotice)
        let playbook = try checkedPlaybook(text, file: displayName, registry: registry, onNotice: onNotice)
        guard playbook.name == run.playbook else {
            throw .playbookRenamed(file: displayName, now: playbook.name, runID: runID, was: run.playbook)
        }
        let (inputs, secrets) = try await resumeInputs(run, playbook: playbook, given: request.secretInputs)
        let uncertain = try await HostError.journaling { try await RecordedRuns.uncertainCalls(journal, runID, registry: registry) }
        let decisions = try await decide(uncertain, policy: request.uncertain, registry: registry)

        // Take the run: refuses when another process (a second resume) holds it.
        _ = try await RecordedRuns.takeOver(
            runID, for: .resume, trigger: request.trigger, journal: journal, check: RecordedRuns.checkResumable)
        do {
            var undecided: [CallKey] = []
            let plan = try await journal.resumePlan(runID, isReadOnly: RecordedRuns.isReadOnly(registry)) { call in
                if let decision = decisions[call.key] { return decision }
                undecided.append(call.key)
                return .skip
            }
            guard undecided.isEmpty else { throw HostError.runChangedWhilePreparing(runID: runID) }
            if text != timeline.source { try await journal.setSource(text, forRun: runID) }
            if !plan.maskedOutputs.isEmpty { onNotice(.maskedOutputs(plan.maskedOutputs, rollingBack: false)) }
            return PreparedRun(
                playbook: playbook, inputs: inputs, registry: registry, journal: journal, runID: runID,
                work: .run(Engine.RunOptions(trigger: run.trigger, source: text, resume: (runID, plan), secrets: secrets)), heldStatus: run.status,
                workspace: WorkspaceFolder.of(recordedFile: run.file, fallback: configuration.currentDirectory).path)
        } catch {
            try? await journal.release(runID, status: run.status)
            throw HostError(error)
        }
    }

    /// Prepares and executes a resume (see `prepareResume` and `execute`).
    public func resume(
        _ request: ResumeRequest, confirmer: (any Confirmer)? = nil, onNotice: HostNoticeHandler = { _ in },
        onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> RunResult {
        await execute(try await prepareResume(request, onNotice: onNotice), confirmer: confirmer, onEvent: onEvent)
    }

    /// The text to resume with: the run's file when unchanged; a changed one only with `force`.
    func resumeText(
        _ run: JournalRun, recordedSource: String, force: Bool, onNotice: HostNoticeHandler
    ) throws(HostError) -> (text: String, displayName: String) {
        guard let path = run.file else {
            guard !recordedSource.isEmpty else { throw .playbookNotRecorded(runID: run.id) }
            return (recordedSource, "\(run.playbook) (as recorded)")
        }
        let displayName = displayPath(URL(fileURLWithPath: path))
        // The same check as any playbook file: over the limit or not a regular file, it is not read.
        guard let data = try? SourceFile.contents(path, display: displayName), let text = String(data: data, encoding: .utf8) else {
            guard !recordedSource.isEmpty else { throw .recordedPlaybookUnreadable(file: displayName, runID: run.id) }
            onNotice(.resumingWithRecordedText(file: displayName))
            return (recordedSource, "\(displayName) (as recorded)")
        }
        let hash = SourceHash.of(text)
        if hash != run.sourceHash {
            guard force else { throw .playbookChanged(file: displayName, runID: run.id, recordedHash: run.sourceHash, currentHash: hash) }
            onNotice(.resumingChangedFile(file: displayName, runID: run.id))
        }
        return (text, displayName)
    }

    /// The run's recorded inputs, with the secret ones (which the journal redacted) given again or
    /// read again from their providers (`from:`), and the values of the secrets the playbook reads.
    func resumeInputs(
        _ run: JournalRun, playbook: Playbook, given: [(key: String, text: String)]
    ) async throws(HostError) -> (inputs: ValueObject, secrets: [String: String]) {
        let provided = try await provideSecrets(for: playbook, given: Set(given.map(\.key)))
        let secret = Set(playbook.inputs.filter(\.schema.containsSecret).map(\.name))
        for (key, _) in given where !secret.contains(key) {
            throw .notASecretInput(name: key, secretInputs: secret.sorted())
        }
        var values = ValueObject()
        var missing: [String] = []
        for (key, value) in run.inputs {
            if let value = provided.inputs[key] {
                values[key] = value
            } else if secret.contains(key) {
                if !given.contains(where: { $0.key == key }) { missing.append(key) }
            } else {
                values[key] = value
            }
        }
        guard missing.isEmpty else { throw .secretInputsMissing(runID: run.id, names: missing) }
        do throws(DiagnosticError) {
            let inputs = try InputResolver(now: configuration.clock.now(), timeZone: configuration.timeZone, variables: configuration.environment)
                .resolve(playbook, values: values, commandLine: given)
            return (inputs, provided.values)
        } catch {
            throw .invalidInputs(diagnostics: error.diagnostics)
        }
    }

    /// What to do with each uncertain call: re-run it when its skill is idempotent or read-only;
    /// otherwise the policy decides.
    private func decide(
        _ uncertain: [JournalCall], policy: UncertainCallPolicy, registry: SkillRegistry
    ) async throws(HostError) -> [CallKey: ResumePlan.Uncertain] {
        var decisions: [CallKey: ResumePlan.Uncertain] = [:]
        var open: [JournalCall] = []
        for call in uncertain {
            if RecordedRuns.isRepeatable(call.skill, registry: registry) {
                decisions[call.key] = .rerun
            } else {
                switch policy {
                case .rerun: decisions[call.key] = .rerun
                case .skip: decisions[call.key] = .skip
                case .refuse, .ask: open.append(call)
                }
            }
        }
        guard !open.isEmpty else { return decisions }
        guard case .ask(let ask) = policy else { throw .uncertainCalls(open) }
        for call in open {
            guard let decision = await ask(call) else { throw .resumeAborted }
            decisions[call.key] = decision
        }
        return decisions
    }
}
