import SkillbookTesting
import Foundation
import SkillbookCLI
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import Testing
import SkillbookSQL

/// The state of `directory` as a dead process sees it (see `SkillbookTesting.crashedJournal`).
func crashedJournal(_ directory: TemporaryDirectory) throws -> SQLiteJournal {
    try crashedJournal(stateDirectory: directory.state)
}

/// A run of `file` left by a crash in the state of `directory` (see `SkillbookTesting.recordCrashedRun`).
func recordCrashedRun(
    _ directory: TemporaryDirectory, file: URL, playbook: String, inputs: ValueObject = [:],
    calls: [(step: String, skill: String, output: Value?)]
) throws -> String {
    try recordCrashedRun(stateDirectory: directory.state, file: file, playbook: playbook, inputs: inputs, calls: calls)
}

@Suite struct JournalCommandsTests {
    static let twoNotes = """
        name: two-notes
        on_failure: stop
        inputs:
          fail: { type: boolean, default: false }
        steps:
          - { id: one, skill: notes.create, with: { title: one } }
          - { id: two, skill: notes.create, with: { title: two } }
          - id: check
            skill: debug.fail
            when: "${{ inputs.fail }}"
            with: { message: stop here }

        """

    func notes(_ directory: TemporaryDirectory) throws -> [String] {
        try NotesStore(stateDirectory: directory.state).list(limit: 1000).map(\.title)
    }

    @Test func everyRunIsRecordedAndListed() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        #expect(await skillbook(["run", "two-notes"], in: directory).code == 0)
        #expect(await skillbook(["run", "two-notes", "-i", "fail=true"], in: directory).code == 1)
        #expect(await skillbook(["run", "two-notes", "--dry-run"], in: directory).code == 0)

        let table = await skillbook(["runs"], in: directory)
        #expect(table.code == 0)
        let lines = table.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "dry runs are not recorded:\n\(table.out)")
        #expect(lines.first?.hasPrefix("ID        PLAYBOOK   STATUS     STARTED                     DURATION") == true, "\(table.out)")
        #expect(lines[1].contains("two-notes  failed"))
        #expect(lines[2].contains("two-notes  succeeded"))

        let json = await skillbook(["runs", "--json"], in: directory)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["status"] as? String } == ["failed", "succeeded"])
        #expect(rows.allSatisfy { $0["playbook"] as? String == "two-notes" && $0["trigger"] as? String == "cli" })
        #expect(rows.allSatisfy { ($0["id"] as? String)?.count == 36 && $0["started"] is String && $0["duration"] is Double })
        #expect(rows[0]["error"] as? String == "step 'check' failed: stop here")

        let limited = await skillbook(["runs", "--json", "--limit", "1", "--status", "succeeded"], in: directory)
        let one = try #require(try JSONSerialization.jsonObject(with: Data(limited.out.utf8)) as? [[String: Any]])
        #expect(one.map { $0["status"] as? String } == ["succeeded"])
        // A short option takes its value attached too.
        let attached = await skillbook(["runs", "--json", "-n1"], in: directory)
        #expect(attached.code == 0, "\(attached.err)")
        let newest = try #require(try JSONSerialization.jsonObject(with: Data(attached.out.utf8)) as? [[String: Any]])
        #expect(newest.map { $0["status"] as? String } == ["failed"])
        let other = await skillbook(["runs", "--playbook", "other"], in: directory)
        #expect(other.code == 0)
        #expect(other.err == "no runs of playbook 'other' recorded in \(directory.state.path)/skillbook.sqlite\n")
        let none = await skillbook(["runs", "--playbook", "two-notes", "--status", "rolled_back"], in: directory)
        #expect(none.err == "no rolled_back runs of playbook 'two-notes' recorded in \(directory.state.path)/skillbook.sqlite\n")

        let badStatus = await skillbook(["runs", "--status", "rolledback"], in: directory)
        #expect(badStatus.code == 2)
        #expect(badStatus.errLines.first?.contains("unknown status 'rolledback'; did you mean 'rolled_back'?") == true)
        #expect(await skillbook(["runs", "--limit", "0"], in: directory).code == 2)
    }

    @Test func runsShowPrintsTheTimelineAndExportsTheRecord() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        #expect(await skillbook(["run", "two-notes", "-i", "fail=true"], in: directory).code == 1)
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let runID = try #require(try journal.runs().first?.id)

        let text = await skillbook(["runs", "show", String(runID.prefix(6))], in: directory)
        #expect(text.code == 0)
        for expected in [
            "run \(runID)  two-notes", "  status    failed", "  file      \(file.path)", "  error     step 'check' failed: stop here",
            "▶ run started by process ", "one (notes.create) ✓", "✓ step one succeeded", "check (debug.fail) ✗ stop here",
            "✗ step check failed: stop here", "■ run ended: failed", "Steps:",
        ] {
            #expect(text.out.contains(expected), "missing '\(expected)' in\n\(text.out)")
        }

        let json = await skillbook(["runs", "show", runID, "--json"], in: directory)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(record["id"] as? String == runID)
        #expect(record["source"] as? String == Self.twoNotes)
        #expect(record["source_hash"] as? String == SourceHash.of(Self.twoNotes))
        #expect((record["inputs"] as? [String: Any])?["fail"] as? Bool == true)
        let calls = try #require(record["calls"] as? [[String: Any]])
        #expect(calls.map { $0["step"] as? String } == ["one", "two", "check"])
        #expect((calls[0]["output"] as? [String: Any])?["title"] as? String == "one")
        #expect(calls[2]["error"] as? String == "stop here")
        #expect((record["steps"] as? [[String: Any]])?.map { $0["status"] as? String } == ["succeeded", "succeeded", "failed"])
        #expect((record["report"] as? [[String: Any]])?.count == 3)

        let missing = await skillbook(["runs", "show", "zzz"], in: directory)
        #expect(missing.code == 2)
        #expect(missing.err.contains("no run 'zzz' in "))
    }

    /// A big run is read a page of calls at a time: the text puts a step's items that succeeded on
    /// one line, `--json` has every attempt (here more than one page of them).
    @Test func runsShowOfABigRunGroupsItsItemsAndExportsEveryCall() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/many.yaml",
            """
            name: many
            inputs:
              items: { type: array, items: { type: integer }, default: [\((0..<1200).map(String.init).joined(separator: ", "))] }
            steps:
              - id: each
                foreach: "${{ inputs.items }}"
                skill: debug.echo
                with: { value: "${{ item }}" }
              - { id: last, skill: debug.echo, when: "${{ length(inputs.items) > 0 }}", with: { value: done } }

            """)
        #expect(await skillbook(["run", "many"], in: directory).code == 0)
        #expect(await skillbook(["run", "many", "-i", "items=[]"], in: directory).code == 0)
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let runs = try journal.runs()
        let (empty, big) = (try #require(runs.first?.id), try #require(runs.last?.id))

        let text = await skillbook(["runs", "show", big], in: directory)
        #expect(text.code == 0, "\(text.err)")
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("(debug.echo)") }.count == 2, "\(text.out)")
        #expect(lines.contains { $0.contains("each[item 1] … each[item 1200] (debug.echo) ✓ 1200 items") }, "\(text.out)")
        // The step ends and the session's end come after the calls, in time order.
        let grouped = try #require(lines.firstIndex { $0.contains("1200 items") })
        let eachEnd = try #require(lines.firstIndex { $0.contains("✓ step each succeeded") })
        let lastCall = try #require(lines.firstIndex { $0.contains("last (debug.echo) ✓") })
        #expect(grouped < eachEnd && eachEnd < lastCall, "\(text.out)")
        #expect(lines.contains { $0.contains("■ run ended: succeeded") } && text.out.contains("Steps:"))

        let json = await skillbook(["runs", "show", big, "--json"], in: directory)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let calls = try #require(record["calls"] as? [[String: Any]])
        #expect(calls.count == 1201)
        #expect(calls.prefix(1200).map { $0["iteration"] as? Int } == Array(0..<1200))
        #expect((calls[1199]["output"] as? [String: Any])?["value"] as? Int == 1199)
        #expect(calls[1200]["step"] as? String == "last")
        #expect((record["steps"] as? [[String: Any]])?.count == 2)
        #expect(record["notifications"] as? [Any] != nil)
        // A run without calls has an empty list.
        let none = await skillbook(["runs", "show", empty, "--json"], in: directory)
        let emptyRecord = try #require(try JSONSerialization.jsonObject(with: Data(none.out.utf8)) as? [String: Any])
        #expect((emptyRecord["calls"] as? [Any])?.isEmpty == true)
        #expect(none.out.contains("\"calls\": [],"))
    }

    @Test func aFailedRunIsRolledBackFromTheJournal() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        #expect(await skillbook(["run", "two-notes", "-i", "fail=true"], in: directory).code == 1)
        #expect(try notes(directory) == ["one", "two"])
        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)

        let undo = await skillbook(["rollback", String(runID.prefix(8))], in: directory)
        #expect(undo.code == 0, "\(undo.err)")
        #expect(undo.err.contains("↶ two undone"))
        #expect(try notes(directory).isEmpty)
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let timeline = try #require(try journal.timeline(runID))
        #expect(timeline.run.status == .rolledBack)
        #expect(timeline.run.error == "step 'check' failed: stop here", "why it failed is kept")
        #expect(timeline.report?.arrayValue?.map { $0["status"]?.stringValue ?? "" } == ["compensated", "compensated", "failed"])
        #expect(timeline.compensations.map(\.key.step) == ["two", "one"])
        #expect(timeline.sessions.map(\.kind) == ["run", "rollback"])

        let again = await skillbook(["rollback", runID], in: directory)
        #expect(again.code == 2)
        let resume = await skillbook(["resume", runID], in: directory)
        #expect(resume.code == 2)
        #expect(resume.err.contains("was rolled back; nothing to resume"))
    }

    @Test func aSucceededRunIsUndoneOnlyWithYesWithoutATerminal() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        #expect(await skillbook(["run", "two-notes"], in: directory).code == 0)
        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)
        let resume = await skillbook(["resume", runID], in: directory)
        #expect(resume.code == 2)
        #expect(resume.err.contains("already finished (succeeded); nothing to resume"))

        let plan = "Rolling back run \(runID.prefix(8)) (two-notes, succeeded):\n  undo  two (notes.create)\n  undo  one (notes.create)\n"
        let refused = await skillbook(["rollback", runID], in: directory)
        #expect(refused.code == 2)
        #expect(
            refused.err == plan
                + "skillbook: error: run \(runID) (two-notes) succeeded; undoing it was not approved (no terminal to ask on; "
                + "pass --yes to undo it); nothing was undone\n")
        #expect(try notes(directory) == ["one", "two"])
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        #expect(try journal.run(runID)?.status == .succeeded, "a refusal changes nothing")
        #expect(try journal.timeline(runID)?.sessions.map(\.kind) == ["run"], "the run was not even taken over")

        let undone = await skillbook(["rollback", "--last", "--yes"], in: directory)
        #expect(undone.code == 0, "\(undone.err)")
        #expect(undone.err.hasPrefix(plan), "\(undone.err)")
        #expect(undone.err.contains("↶ two undone"))
        #expect(try notes(directory).isEmpty)
        #expect(try journal.run(runID)?.status == .rolledBack)

        let twice = await skillbook(["rollback", "--last", "--yes"], in: directory)
        #expect(twice.code == 2)
        #expect(twice.errLines == ["skillbook: error: run \(runID) (two-notes) is already rolled back; nothing to undo"])
    }

    @Test func aTerminalIsAskedAndWhatCannotBeUndoneIsListed() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/tell.yaml",
            """
            name: tell
            steps:
              - { id: save, skill: notes.create, with: { title: kept } }
              - { id: look, skill: notes.list }
              - { id: tell, skill: notify.send, with: { message: saved, desktop: false } }

            """)
        #expect(await skillbook(["run", "tell"], in: directory).code == 0)
        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)
        let plan = """
            Rolling back run \(runID.prefix(8)) (tell, succeeded):
              undo  save (notes.create)
              keep  tell (notify.send): skill 'notify.send' cannot be undone
            Undo run \(runID.prefix(8)), which succeeded? [y/N]\u{20}
            """
        let declined = await terminal(["rollback", String(runID.prefix(6))], answer: "n", in: directory)
        #expect(declined.code == 2)
        #expect(
            declined.err == plan + "skillbook: error: run \(runID) (tell) succeeded; undoing it was not approved (declined); nothing was undone\n")
        #expect(try notes(directory) == ["kept"])

        let approved = await terminal(["rollback", String(runID.prefix(6))], answer: "y", in: directory)
        #expect(approved.code == 3, "the notification stays sent: \(approved.err)")
        #expect(approved.err.hasPrefix(plan))
        #expect(try notes(directory).isEmpty)
        #expect(try SQLiteJournal(stateDirectory: directory.state).run(runID)?.status == .rollbackIncomplete)
    }

    /// `--last` is the newest run that did something: a read-only `call` after it (or a
    /// notification) had been taken, "undone" with nothing to undo and marked rolled back.
    @Test func lastPassesOverRunsThatOnlyRead() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        #expect(await skillbook(["run", "two-notes"], in: directory).code == 0)
        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)
        #expect(await skillbook(["call", "notes.list"], in: directory).code == 0)
        let undone = await skillbook(["rollback", "--last", "--yes"], in: directory)
        #expect(undone.code == 0, "\(undone.err)")
        #expect(undone.err.hasPrefix("Rolling back run \(runID.prefix(8)) (two-notes, succeeded):"), "\(undone.err)")
        #expect(try notes(directory).isEmpty)
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        #expect(try journal.runs().map(\.status).sorted { $0.rawValue < $1.rawValue } == [.rolledBack, .succeeded])

        let onlyReads = TemporaryDirectory()
        #expect(await skillbook(["call", "notes.list"], in: onlyReads).code == 0)
        let nothing = await skillbook(["rollback", "--last", "--yes"], in: onlyReads)
        #expect(nothing.code == 2)
        #expect(nothing.errLines.first?.hasPrefix("skillbook: error: the one run in ") == true, "\(nothing.err)")
        #expect(nothing.errLines.first?.hasSuffix(" did anything to undo (only reads or notifications); name a run: skillbook rollback RUN") == true)
    }

    @Test func rollbackTakesOneOfRunAndLast() async throws {
        let directory = TemporaryDirectory()
        let both = await skillbook(["rollback", "abc", "--last"], in: directory)
        #expect(both.code == 2)
        #expect(both.errLines.first == "skillbook: error: give RUN or --last, not both")
        let neither = await skillbook(["rollback"], in: directory)
        #expect(neither.code == 2)
        #expect(neither.errLines.first == "skillbook: error: 'skillbook rollback' needs RUN (or --last)")
        let empty = await skillbook(["rollback", "--last"], in: directory)
        #expect(empty.code == 2)
        #expect(empty.errLines.first?.hasSuffix("; nothing to undo") == true, "\(empty.err)")
    }

    /// `skillbook ARGS` in-process as on a terminal whose user types `answer`.
    private func terminal(_ arguments: [String], answer: String, in directory: TemporaryDirectory) async -> CLIRun {
        let captured = CapturedOutput()
        var console = captured.console
        console.stdinIsTerminal = true
        console.readLine = { answer }
        let code = await SkillbookCLI.run(
            arguments + ["--state", directory.state.path, "--playbooks", directory.playbooks.path], console: console,
            currentDirectory: directory.url)
        return CLIRun(code: code, out: captured.out, err: captured.err)
    }

    @Test func aChangedPlaybookFileIsRefusedUnlessForced() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        #expect(await skillbook(["run", "two-notes", "-i", "fail=true"], in: directory).code == 1)
        let runID = try #require(try SQLiteJournal(stateDirectory: directory.state).runs().first?.id)
        // Fix the failing step: it now echoes instead.
        directory.write(
            "Playbooks/two-notes.yaml",
            Self.twoNotes.replacingOccurrences(of: "skill: debug.fail", with: "skill: debug.echo")
                .replacingOccurrences(of: "with: { message: stop here }", with: "with: { value: fixed }"))

        let refused = await skillbook(["resume", runID], in: directory)
        #expect(refused.code == 2)
        #expect(refused.err.contains("Playbooks/two-notes.yaml changed since run \(runID.prefix(8)) started"), "\(refused.err)")
        #expect(refused.err.contains("pass --force to resume with the file as it is now"))
        #expect(try SQLiteJournal(stateDirectory: directory.state).run(runID)?.status == .failed, "a refusal changes nothing")

        let forced = await skillbook(["resume", runID, "--force"], in: directory)
        #expect(forced.code == 0, "\(forced.err)")
        #expect(forced.err.contains("changed since run \(runID.prefix(8)) started; resuming with the file as it is now (--force)"))
        #expect(forced.err.contains("- one skipped: already done before the run stopped (interrupted, or waiting for an approval)"))
        #expect(try notes(directory) == ["one", "two"], "completed steps were not made again")
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        #expect(try journal.run(runID)?.status == .succeeded)
        #expect(try journal.run(runID)?.sourceHash == SourceHash.of(try String(contentsOf: file, encoding: .utf8)))
    }

    static let uncertain = """
        name: uncertain
        steps:
          - { id: one, skill: notes.create, with: { title: one } }
          - { id: two, skill: notes.create, with: { title: two } }
          - { id: three, skill: notes.create, with: { title: three } }

        """

    @Test func anUncertainActionNeedsADecisionWithoutATerminal() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("uncertain.yaml", Self.uncertain)
        _ = try NotesStore(stateDirectory: directory.state).create(title: "one")
        let runID = try recordCrashedRun(
            directory, file: file, playbook: "uncertain", calls: [("one", "notes.create", ["id": "x", "title": "one"]), ("two", "notes.create", nil)])
        #expect(try SQLiteJournal(stateDirectory: directory.state).run(runID)?.status == .interrupted)

        let refused = await skillbook(["resume", runID], in: directory)
        #expect(refused.code == 2)
        #expect(refused.err.contains("a call of this run started but never recorded a result"), "\(refused.err)")
        #expect(refused.err.contains("  two (notes.create), started "))
        #expect(refused.err.contains("pass --rerun-uncertain to run it again or --skip-uncertain to count it as done"))
        #expect(try SQLiteJournal(stateDirectory: directory.state).run(runID)?.status == .interrupted)

        let both = await skillbook(["resume", runID, "--rerun-uncertain", "--skip-uncertain"], in: directory)
        #expect(both.code == 2)

        let skipped = await skillbook(["resume", runID, "--skip-uncertain"], in: directory)
        #expect(skipped.code == 0, "\(skipped.err)")
        #expect(try notes(directory) == ["one", "three"], "'two' was counted as done, not made")
        let timeline = try #require(try SQLiteJournal(stateDirectory: directory.state).timeline(runID))
        #expect(timeline.run.status == .succeeded)
        #expect(timeline.sessions.map(\.outcome) == ["interrupted", "succeeded"])
    }

    @Test func onATerminalTheUserDecidesAboutAnUncertainCall() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("uncertain.yaml", Self.uncertain)
        let runID = try recordCrashedRun(directory, file: file, playbook: "uncertain", calls: [("one", "notes.create", nil)])
        func resume(answering answer: String) async -> (code: Int32, err: String) {
            let captured = CapturedOutput()
            var console = captured.console
            console.stdinIsTerminal = true
            console.readLine = { answer }
            let code = await SkillbookCLI.run(
                ["resume", runID, "--state", directory.state.path], console: console, currentDirectory: directory.url)
            return (code, captured.err)
        }
        let aborted = await resume(answering: "a")
        #expect(aborted.code == 2)
        #expect(aborted.err.contains("one (notes.create), started "))
        #expect(aborted.err.contains("started but never recorded a result: it may or may not have taken effect"))
        #expect(aborted.err.contains("Choice [r/s/a]: "))
        #expect(aborted.err.contains("resume aborted; nothing was run"))
        #expect(try SQLiteJournal(stateDirectory: directory.state).run(runID)?.status == .interrupted)

        let rerun = await resume(answering: "r")
        #expect(rerun.code == 0, "\(rerun.err)")
        #expect(try notes(directory) == ["one", "two", "three"])
    }

    @Test func rerunUncertainMakesTheCallAgain() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("uncertain.yaml", Self.uncertain)
        let runID = try recordCrashedRun(directory, file: file, playbook: "uncertain", calls: [("one", "notes.create", nil)])
        let resumed = await skillbook(["resume", String(runID.prefix(10)), "--rerun-uncertain"], in: directory)
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(try notes(directory) == ["one", "two", "three"])
    }

    @Test func anIdempotentOrReadOnlyUncertainCallIsSimplyRunAgain() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "napping.yaml",
            """
            name: napping
            steps:
              - { id: nap, skill: debug.sleep, with: { seconds: 0 } }
              - { id: one, skill: notes.create, with: { title: one } }

            """)
        let runID = try recordCrashedRun(directory, file: file, playbook: "napping", calls: [("nap", "debug.sleep", nil)])
        let resumed = await skillbook(["resume", runID], in: directory)
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(try notes(directory) == ["one"])
    }

    @Test func rollingBackAnUncertainActionIsIncomplete() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("uncertain.yaml", Self.uncertain)
        let note = try NotesStore(stateDirectory: directory.state).create(title: "one")
        let runID = try recordCrashedRun(
            directory, file: file, playbook: "uncertain", calls: [("one", "notes.create", note.value), ("two", "notes.create", nil)])
        let undo = await skillbook(["rollback", runID], in: directory)
        #expect(undo.code == 3)
        #expect(undo.err.contains("rollback_incomplete"), "\(undo.err)")
        #expect(undo.err.contains("the result of two (notes.create), started "))
        #expect(undo.err.contains("was never recorded (its process stopped during the call), so it cannot be undone"))
        #expect(try notes(directory).isEmpty, "what could be undone was")
        #expect(try SQLiteJournal(stateDirectory: directory.state).run(runID)?.status == .rollbackIncomplete)
    }

    @Test func secretInputsMustBeGivenAgain() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "secret.yaml",
            """
            name: secret
            inputs:
              title: { type: string }
              token: { type: string, secret: true }
            steps:
              - { id: one, skill: notes.create, with: { title: "${{ inputs.title }}" } }
              - { id: two, skill: notes.create, with: { title: "${{ inputs.title }} again", body: "${{ inputs.token }}" } }

            """)
        let runID = try recordCrashedRun(
            directory, file: file, playbook: "secret", inputs: ["title": "hi", "token": "***"],
            calls: [("one", "notes.create", ["id": "x", "title": "hi"])])

        let missing = await skillbook(["resume", runID], in: directory)
        #expect(missing.code == 2)
        #expect(
            missing.err.contains(
                "run \(runID)'s input 'token' is secret, so the journal did not keep it; give it again: "
                    + "skillbook resume \(runID.prefix(8)) -i token=VALUE"), "\(missing.err)")
        let notSecret = await skillbook(["resume", runID, "-i", "title=other", "-i", "token=s3cret"], in: directory)
        #expect(notSecret.code == 2)
        #expect(notSecret.err.contains("input 'title' is resumed as recorded; -i only gives secret inputs again (its secret inputs: token)"))

        let resumed = await skillbook(["resume", runID, "-i", "token=s3cret"], in: directory)
        #expect(resumed.code == 0, "\(resumed.err)")
        let saved = try NotesStore(stateDirectory: directory.state).list(limit: 10)
        #expect(saved.map(\.title) == ["hi again"])
        #expect(saved.first?.body == "s3cret")
        let timeline = try #require(try SQLiteJournal(stateDirectory: directory.state).timeline(runID))
        #expect(timeline.calls.last?.parameters["body"] == "***", "the secret stays out of the journal")
    }

    @Test func aRunHeldByALiveProcessIsNotTakenOver() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("uncertain.yaml", Self.uncertain)
        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let text = try String(contentsOf: file, encoding: .utf8)
        try journal.runStarted(
            RunRecord(
                runID: "live-run", playbook: "uncertain", source: text, sourceHash: SourceHash.of(text), inputs: [:], trigger: "cli",
                started: Date(), dryRun: false))
        for command in ["resume", "rollback"] {
            let refused = await skillbook([command, "live-run"], in: directory)
            #expect(refused.code == 2)
            #expect(refused.err.contains("run live-run (uncertain) is still running in process \(getpid())"), "\(refused.err)")
        }
    }

    @Test func pruneRemovesOldRuns() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        for _ in 0..<3 { #expect(await skillbook(["run", "two-notes"], in: directory).code == 0) }
        let recent = await skillbook(["runs", "prune", "--older-than", "30d"], in: directory)
        #expect(recent.code == 0)
        #expect(recent.out == "pruned 0 runs\n")
        #expect(await skillbook(["runs", "prune", "--older-than", "30"], in: directory).code == 2)
        let kept = await skillbook(["runs", "prune", "--keep", "1"], in: directory)
        #expect(kept.out == "pruned 2 runs\n")
        #expect(try SQLiteJournal(stateDirectory: directory.state).runs().count == 1)
    }

    @Test func everyJournalCommandHasHelp() async throws {
        let directory = TemporaryDirectory()
        for command in [["runs"], ["runs", "show"], ["runs", "prune"], ["resume"], ["rollback"]] {
            let help = await skillbook(command + ["--help"], in: directory)
            #expect(help.code == 0)
            #expect(help.out.contains("Usage: skillbook \(command.joined(separator: " "))"), "\(help.out)")
        }
        let general = await skillbook(["--help"], in: directory)
        for name in ["runs show", "runs prune", "resume", "rollback"] { #expect(general.out.contains("  \(name) ")) }
    }

    @Test func aCorruptStateDatabaseIsReportedAndKept() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/two-notes.yaml", Self.twoNotes)
        let file = StateDatabase.url(in: directory.state)
        try FileManager.default.createDirectory(at: directory.state, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 5) })
        try garbage.write(to: file)
        for command in [["runs"], ["run", "two-notes"], ["resume", "abc"], ["runs", "show", "abc"]] {
            let result = await skillbook(command, in: directory)
            #expect(result.code == 2, "\(command): nothing ran")
            #expect(
                result.err
                    == "skillbook: error: state database \(file.path) is not a valid SQLite database (file is not a database); "
                    + "move it aside or use another state directory (pass --state DIR)\n", "\(command)")
        }
        #expect(try Data(contentsOf: file) == garbage)
    }
}
