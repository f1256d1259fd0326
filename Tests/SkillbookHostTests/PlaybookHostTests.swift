import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Runs, resumes and rolls back playbooks through the host alone (no command line), on a manual clock.
@Suite struct PlaybookHostTests {
    /// Saves a note, then reads `flag.txt` (retried once, 5 s later): fails while the file is missing.
    static let saveThenRead = """
        name: save-then-read
        inputs:
          title: { type: string, default: hello }
        on_failure: stop
        steps:
          - id: save
            skill: notes.create
            with: { title: "${{ inputs.title }}" }
          - id: read
            skill: files.read
            retry: { attempts: 2, delay: 5s }
            with: { path: flag.txt }
        outputs:
          note: "${{ steps.save.output.id }}"
          text: "${{ steps.read.output.content }}"
        """

    func notes(_ fixture: HostFixture) throws -> [String] {
        try NotesStore(stateDirectory: fixture.state).list(tag: nil, limit: 10).map(\.title)
    }

    @Test func aRunIsCheckedRecordedAndTimedOnTheHostsClock() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/save-then-read.yaml", Self.saveThenRead)
        fixture.write("flag.txt", "ready")
        let host = fixture.host()
        let events = Recorder<String>()
        let started = fixture.clock.now()
        let result = try await host.run(RunRequest(playbook: "save-then-read", inputTexts: [("title", "Ada")]), onEvent: { event in
            events.append(event.type)
        })
        #expect(result.status == .succeeded)
        #expect(result.runID == "00000001-0000-4000-8000-000000000000")
        #expect(result.outputs["text"] == "ready")
        #expect(result.started == started && result.finished == started)
        #expect(events.values.first == "run.started" && events.values.last == "run.finished")
        #expect(try notes(fixture) == ["Ada"])

        let journal = try host.openJournal()
        let run = try #require(try await journal.run(result.runID))
        #expect(run.status == .succeeded)
        #expect(run.trigger == "cli")
        #expect(run.file == fixture.url.appendingPathComponent("Playbooks/save-then-read.yaml").path)
        #expect(run.started == started)
    }

    @Test func aFailedRunIsResumedFromWhereItStopped() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/save-then-read.yaml", Self.saveThenRead)
        let host = fixture.host()
        let started = fixture.clock.now()
        let failed = try await fixture.driving { try await host.run(RunRequest(playbook: "save-then-read")) }
        #expect(failed.status == .failed)
        #expect(failed.step("read")?.attempts == 2)
        // The retry waited on the host's clock: 5 s passed without sleeping.
        #expect(failed.finished.timeIntervalSince(started) == 5)
        #expect(try notes(fixture) == ["hello"])

        fixture.write("flag.txt", "now there")
        let notices = NoticeLog()
        let resumed = try await host.resume(ResumeRequest(run: "00000001"), onNotice: notices.handler)
        #expect(resumed.status == .succeeded)
        #expect(resumed.runID == failed.runID)
        #expect(resumed.outputs["text"] == "now there")
        #expect(try notes(fixture) == ["hello"], "the note saved before the failure is reused, not made again")
        #expect(notices.all.isEmpty)
        #expect(try await host.openJournal().run(failed.runID)?.status == .succeeded)

        // A finished run is not resumed again: the host says why, as a value.
        do {
            _ = try await host.prepareResume(ResumeRequest(run: failed.runID))
            Issue.record("a finished run was resumed")
        } catch {
            guard case .notResumable(let run, .finished) = error else { throw error }
            #expect(run.id == failed.runID)
        }
    }

    @Test func aFailedRunIsRolledBack() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/save-then-read.yaml", Self.saveThenRead)
        let host = fixture.host()
        let failed = try await fixture.driving { try await host.run(RunRequest(playbook: "save-then-read")) }
        #expect(failed.status == .failed)
        #expect(try notes(fixture) == ["hello"])

        let events = Recorder<String>()
        let undone = try await host.rollback(run: "0000000", onEvent: { event in events.append(event.type) })
        #expect(undone.status == .rolledBack)
        #expect(try notes(fixture).isEmpty)
        #expect(events.values.contains("compensation.succeeded"))
        #expect(try await host.openJournal().run(failed.runID)?.status == .rolledBack)

        do {
            _ = try await host.prepareRollback(run: failed.runID)
            Issue.record("a rolled-back run was rolled back again")
        } catch {
            guard case .notUndoable(_, .alreadyRolledBack) = error else { throw error }
        }
    }

    @Test func aSucceededRunIsUndoneOnlyWhenApprovedAfterItsPreview() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/save-then-read.yaml", Self.saveThenRead)
        fixture.write("flag.txt", "ready")
        let host = fixture.host()
        let done = try await fixture.driving { try await host.run(RunRequest(playbook: "save-then-read")) }
        #expect(done.status == .succeeded)

        let notices = Recorder<RollbackPreview>()
        let onNotice: HostNoticeHandler = { notice in if case .rollbackPlan(let preview) = notice { notices.append(preview) } }
        do {
            _ = try await host.prepareRollback(.last, onNotice: onNotice)
            Issue.record("a finished run was undone without approval")
        } catch {
            guard case .rollbackNotApproved(let run, let reason) = error else { throw error }
            #expect(run.id == done.runID)
            #expect(reason == "no one to approve undoing a finished run")
        }
        #expect(try await host.openJournal().run(done.runID)?.status == .succeeded)
        #expect(try notes(fixture) == ["hello"])
        // What will be undone is known before the question; the read (a query) has nothing to undo.
        let preview = try #require(notices.values.first)
        #expect(preview.undone == [RollbackPreview.Item(key: CallKey(step: "save"), skill: "notes.create", byRollbackSteps: false)])
        #expect(preview.irreversible.isEmpty && preview.uncertain.isEmpty && preview.needsApproval)

        let asked = Recorder<String>()
        let undone = try await host.rollback(.run(String(done.runID.prefix(9))), approval: .ask { preview in
            asked.append(preview.run.id)
            return true
        })
        #expect(asked.values == [done.runID])
        #expect(undone.status == .rolledBack)
        #expect(try notes(fixture).isEmpty)
    }

    @Test func aChangedPlaybookIsRefusedUnlessForced() async throws {
        let fixture = HostFixture()
        let file = fixture.write("Playbooks/save-then-read.yaml", Self.saveThenRead)
        let host = fixture.host()
        let failed = try await fixture.driving { try await host.run(RunRequest(playbook: "save-then-read")) }
        fixture.write("Playbooks/save-then-read.yaml", Self.saveThenRead + "\n# edited\n")
        do {
            _ = try await host.prepareResume(ResumeRequest(run: failed.runID))
            Issue.record("a changed playbook was resumed")
        } catch {
            guard case .playbookChanged(let name, let runID, let recorded, let current) = error else { throw error }
            #expect(name == file.path)
            #expect(runID == failed.runID)
            #expect(recorded == SourceHash.of(Self.saveThenRead))
            #expect(current == SourceHash.of(Self.saveThenRead + "\n# edited\n"))
        }
        fixture.write("flag.txt", "x")
        let notices = NoticeLog()
        let forced = try await host.resume(ResumeRequest(run: failed.runID, force: true), onNotice: notices.handler)
        #expect(forced.status == .succeeded)
        guard case .resumingChangedFile(file.path, failed.runID)? = notices.all.first else {
            Issue.record("no notice of the changed file: \(notices.all)")
            return
        }
    }

    @Test func aConfirmationIsAnsweredByThePolicyOrTheRunsConfirmer() async throws {
        let fixture = HostFixture()
        fixture.write(
            "Playbooks/tidy.yaml",
            """
            name: tidy
            steps:
              - id: make
                skill: notes.create
                with: { title: doomed }
              - id: remove
                skill: notes.delete
                with: { ids: ["${{ steps.make.output.id }}"] }
            """)
        let refused = try await fixture.host().run(RunRequest(playbook: "tidy"))
        #expect(refused.status == .rolledBack)
        #expect(refused.step("remove")?.error == "step needs confirmation (notes.delete has confirm): no one to ask for confirmation")
        let approved = try await fixture.host(confirmation: .approveAll).run(RunRequest(playbook: "tidy"))
        #expect(approved.status == .succeeded)
        let asked = Recorder<String>()
        let declined = try await fixture.host(confirmation: .approveAll).run(
            RunRequest(playbook: "tidy"), confirmer: RecordingConfirmer(asked: asked, answer: "declined"))
        #expect(asked.values == ["remove"])
        #expect(declined.status == .rolledBack)
        #expect(try NotesStore(stateDirectory: fixture.state).list(tag: nil, limit: 10).isEmpty)
    }

    @Test func mistakesAreTypedAndNothingRuns() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/save-then-read.yaml", Self.saveThenRead)
        fixture.write("Playbooks/broken.yaml", "name: broken\nsteps:\n  - { id: a, skill: notes.creat }\n")
        let host = fixture.host()
        do {
            _ = try await host.prepareRun(RunRequest(playbook: "save-then-reed"))
            Issue.record("an unknown playbook ran")
        } catch {
            guard case .playbookNotFound("save-then-reed", _, "save-then-read", let available) = error else { throw error }
            #expect(available == ["broken", "save-then-read"])
        }
        do {
            _ = try await host.prepareRun(RunRequest(playbook: "broken"))
            Issue.record("a broken playbook ran")
        } catch {
            guard case .invalidPlaybook(let diagnostics, let sources) = error else { throw error }
            #expect(diagnostics.map(\.message).contains { $0.contains("notes.creat") })
            #expect(sources.keys.contains { $0.hasSuffix("Playbooks/broken.yaml") })
        }
        do {
            _ = try await host.prepareRun(RunRequest(playbook: "save-then-read", inputTexts: [("titel", "x")]))
            Issue.record("an unknown input ran")
        } catch {
            guard case .invalidInputs(let diagnostics) = error else { throw error }
            #expect(diagnostics.first?.message == "playbook 'save-then-read' has no input 'titel'; did you mean 'title'?")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.state.path), "nothing was recorded")
    }
}

/// Records which steps asked, and answers each time with `answer` (`nil` approves).
struct RecordingConfirmer: Confirmer {
    var asked: Recorder<String>
    var answer: String?

    func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        asked.append(request.step.description)
        return answer.map { .declined(reason: $0) } ?? .approved
    }
}
