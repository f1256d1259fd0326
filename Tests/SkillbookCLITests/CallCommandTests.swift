import Foundation
import SkillbookCLI
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting
import Testing

@Suite struct CallCommandTests {
    @Test func aCallIsAJournaledOneStepRunThatPrintsTheOutput() async throws {
        let directory = TemporaryDirectory()
        let created = await skillbook(["call", "notes.create", "-i", "title=Buy milk", "-i", "tags=[home, shop]"], in: directory)
        #expect(created.code == 0, "\(created.err)")
        let note = try #require(try parseJSON(created.out) as? JSONObject)
        #expect(note["title"] as? String == "Buy milk")
        #expect(try NotesStore(stateDirectory: directory.state).get(id: note["id"] as? String ?? "")?.tags == ["home", "shop"])
        #expect(created.err.contains("✓ notes_create"), "\(created.err)")

        let journal = try SQLiteJournal(stateDirectory: directory.state)
        let run = try #require(try journal.runs().first)
        #expect(run.playbook == "call-notes-create")
        #expect(run.trigger == "call")
        #expect(run.status == .succeeded)
        #expect(run.inputs["title"] == "Buy milk")

        // A call is undone like any run.
        let undone = await skillbook(["rollback", String(run.id.prefix(8)), "--yes"], in: directory)
        #expect(undone.code == 0, "\(undone.err)")
        #expect(try NotesStore(stateDirectory: directory.state).list(limit: 10).isEmpty)
    }

    @Test func notesListsNewestFirstUnlessAskedForTheOldest() async throws {
        let directory = TemporaryDirectory()
        let store = try NotesStore(stateDirectory: directory.state)
        _ = try store.create([NoteDraft(title: "first"), NoteDraft(title: "second"), NoteDraft(title: "third")])
        let newest = await skillbook(["call", "notes.list", "-i", "limit=2"], in: directory)
        #expect(newest.code == 0, "\(newest.err)")
        let items = try #require((try parseJSON(newest.out) as? JSONObject)?["items"] as? [JSONObject])
        #expect(items.map { $0["title"] as? String } == ["third", "second"])
        let oldest = await skillbook(["call", "notes.list", "-i", "limit=2", "-i", "order=oldest"], in: directory)
        let first = try #require((try parseJSON(oldest.out) as? JSONObject)?["items"] as? [JSONObject])
        #expect(first.map { $0["title"] as? String } == ["first", "second"])
    }

    @Test func badParametersAreAllReportedAndNothingRuns() async throws {
        let directory = TemporaryDirectory()
        let unknown = await skillbook(["call", "notes.create", "-i", "titel=x", "-i", "colour=red"], in: directory)
        #expect(unknown.code == 2)
        #expect(unknown.out.isEmpty)
        #expect(
            unknown.errLines == [
                "-i titel: error: skill 'notes.create' has no parameter 'titel'; did you mean 'title'?",
                "-i colour: error: skill 'notes.create' has no parameter 'colour' (it takes: title, body, tags)",
                "2 errors, 0 warnings",
            ])
        let missing = await skillbook(["call", "notes.create", "-i", "tags=5"], in: directory)
        #expect(missing.code == 2)
        #expect(missing.errLines == ["-i title: error: missing required parameter 'title'; pass it with -i title=VALUE"])
        let skill = await skillbook(["call", "notes.lst"], in: directory)
        #expect(skill.code == 2)
        #expect(skill.errLines.first == "skillbook: error: no skill 'notes.lst'; did you mean 'notes.list'?")
        #expect(try SQLiteJournal(stateDirectory: directory.state).runs().isEmpty, "nothing was recorded")
    }

    @Test func aSkillThatConfirmsWaitsForAnApprovalWithoutATerminal() async throws {
        let directory = TemporaryDirectory()
        let note = try NotesStore(stateDirectory: directory.state).create(title: "keep", body: "", tags: [])
        let waiting = await skillbook(["call", "notes.delete", "-i", "ids=[\(note.id)]"], in: directory)
        #expect(waiting.code == 4)
        #expect(waiting.err.contains("waits for an approval at step"), "\(waiting.err)")
        #expect(try NotesStore(stateDirectory: directory.state).list(limit: 10).count == 1)
        let approved = await skillbook(["call", "notes.delete", "-i", "ids=[\(note.id)]", "--yes", "--json"], in: directory)
        #expect(approved.code == 0, "\(approved.err)")
        let last = try #require(approved.out.split(separator: "\n").last.flatMap { try? parseJSON(String($0)) as? JSONObject })
        #expect(last["type"] as? String == "run.finished")
        #expect((((last["outputs"] as? JSONObject)?["output"] as? JSONObject)?["notes"] as? [JSONObject])?.map { $0["title"] as? String } == ["keep"])
        #expect(try NotesStore(stateDirectory: directory.state).list(limit: 10).isEmpty)
    }

    @Test func aDryRunRecordsNothing() async throws {
        let directory = TemporaryDirectory()
        let run = await skillbook(["call", "notes.create", "-i", "title=x", "--dry-run"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(try NotesStore(stateDirectory: directory.state).list(limit: 10).isEmpty)
        #expect(try SQLiteJournal(stateDirectory: directory.state).runs().isEmpty)
    }
}
