import SkillbookTesting
import Foundation
@testable import SkillbookCLI
import SkillbookHost
import SkillbookSQL
import SkillbookPostgres
import SkillbookSQLite
import Testing

/// Issue 10 item 15: an empty `--state` is a usage error, and a state folder that cannot be used
/// stops every command before anything runs, with exit code 2.
@Suite struct StateFolderTests {
    static let playbook = "name: note\nsteps:\n  - { id: save, skill: notes.create, with: { title: x } }\n"

    @Test(arguments: [["--state", ""], ["--state="], ["--playbooks", ""], ["--skills", ""], ["--allow-path="]])
    func anEmptyFolderOptionIsAUsageError(_ option: [String]) async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/note.yaml", Self.playbook)
        let run = try await runSkillbook(["run", "note"] + option, in: directory.url)
        #expect(run.code == 2)
        let name = option[0].split(separator: "=")[0]
        #expect(run.err == "skillbook: error: option '\(name)' needs a folder; got an empty value\nRun 'skillbook run --help' for usage.\n")
        #expect(run.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(".local").path), "the default state was not used")
    }

    @Test func anEmptyFileOptionIsAUsageError() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/note.yaml", Self.playbook)
        let run = try await runSkillbook(["run", "note", "--inputs", "", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 2)
        #expect(run.err == "skillbook: error: option '--inputs' needs a file; got an empty value\nRun 'skillbook run --help' for usage.\n")
    }

    @Test func aStateFolderThatIsAFileStopsEveryCommandWithExitCode2() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/note.yaml", Self.playbook)
        let file = directory.write("state", "not a folder\n")
        for command in [["run", "note"], ["runs"], ["runs", "show", "abc"], ["rollback", "abc"], ["resume", "abc"]] {
            let run = try await runSkillbook(command + ["--state", file.path], in: directory.url)
            #expect(run.code == 2, "\(command)")
            #expect(
                run.err
                    == "skillbook: error: state directory \(file.path) is not a folder (a file of that name is in the way); "
                    + "use another state directory (pass --state DIR)\n", "\(command)")
            #expect(run.out.isEmpty)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "not a folder\n", "left as it was")
    }

    @Test func aStateFileThatIsNotADatabaseStopsTheRunWithExitCode2() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/note.yaml", Self.playbook)
        let database = directory.write("state/skillbook.sqlite", "garbage, not SQLite\n")
        let run = try await runSkillbook(["run", "note", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 2)
        #expect(
            run.err
                == "skillbook: error: state database \(database.path) is not a valid SQLite database (file is not a database); "
                + "move it aside or use another state directory (pass --state DIR)\n")
        #expect(!run.err.contains("▶"), "nothing ran")
    }

    /// Root may write anything, so a read-only folder cannot be made here; the exit code of the
    /// error it gives is checked where every error gets its code.
    @Test func aReadOnlyStateIsAUsageClassError() {
        let captured = CapturedOutput()
        let message = "state database /x/skillbook.sqlite is read-only (no permission to write it); check the permissions"
        let code = SkillbookCLI.report(
            HostError.store(StoreError(.readOnly, message: message, path: "/x/skillbook.sqlite")), console: captured.console)
        #expect(code == .usage)
        #expect(captured.err == "skillbook: error: \(message)\n")
        let busy = SkillbookCLI.report(
            HostError.store(StoreError(.busy, message: "locked", path: "/x/skillbook.sqlite")), console: CapturedOutput().console)
        #expect(busy == .failure, "a failure while working is not a usage error")
        #expect(SkillbookCLI.report(StoreError(.notADatabase, message: "m", path: "p"), console: CapturedOutput().console) == .usage)
    }

    /// Issue 22: an unusable PostgreSQL state stops a command with exit code 2, as an unusable
    /// SQLite one does (the host knows any backend's failure through `StateFailure`).
    @Test func anUnreachablePostgresStateStopsEveryCommandWithExitCode2() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/note.yaml", Self.playbook)
        // Nothing listens on port 1 of the loopback: the connection is refused at once.
        let state = "postgresql://nobody@127.0.0.1:1/none"
        for command in [["run", "note"], ["runs"], ["runs", "show", "abc"], ["run", "note", "--queue"]] {
            let run = try await runSkillbook(command + ["--state", state], in: directory.url)
            #expect(run.code == 2, "\(command): \(run.err)")
            #expect(run.err.hasPrefix("skillbook: error: "), "\(command)")
            #expect(run.err.contains("127.0.0.1"), "the message names the database: \(run.err)")
            #expect(!run.err.contains("▶"), "nothing ran")
        }
    }

    @Test func postgresFailuresGetTheExitCodesOfTheirSQLiteTwins() {
        let unreachable = PostgresError(.connection, message: "state database postgresql://db: could not connect")
        #expect(SkillbookCLI.report(HostError.store(unreachable), console: CapturedOutput().console) == .usage)
        #expect(SkillbookCLI.report(unreachable, console: CapturedOutput().console) == .usage)
        let newer = PostgresError(.newerSchema, message: "newer")
        #expect(SkillbookCLI.report(HostError.store(newer), console: CapturedOutput().console) == .usage)
        let rejected = PostgresError(.server, message: "state database postgresql://db: writing failed", sqlState: "57014")
        #expect(SkillbookCLI.report(HostError.store(rejected), console: CapturedOutput().console) == .failure)
        #expect(SkillbookCLI.report(HostError.store(PostgresError(.conflict, message: "dup")), console: CapturedOutput().console) == .failure)
    }
}
