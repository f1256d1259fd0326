import Foundation
import SkillbookCore
import SkillbookStore
import SkillbookTesting
import Synchronization
import Testing

/// `skillbook chat` as a real process with its stdin piped.
@Suite struct ChatCommandTests {
    struct Finished {
        var code: Int32
        var out: String
        var err: String
    }

    /// Runs `skillbook chat` in `directory` with `input` on stdin, then end of input.
    static func chat(_ input: String, in directory: TemporaryDirectory, environment: [String: String] = [:]) throws -> Finished {
        let process = Process()
        process.executableURL = try builtExecutable()
        process.arguments = ["chat", "--state", directory.state.path] + berlin
        process.currentDirectoryURL = directory.url
        process.environment = ["HOME": directory.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        // Both pipes are read to their end while the process runs (a full pipe would block it).
        let out = DrainedPipe(stdout)
        let err = DrainedPipe(stderr)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return Finished(code: process.terminationStatus, out: out.text(), err: err.text())
    }

    @Test func aRequestIsConfirmedRunAndJournaledThenEndOfInputLeaves() async throws {
        let directory = askWorkspace()
        let result = try Self.chat("remind me tomorrow 9am to call Ada\ny\n/history\n", in: directory)
        #expect(result.code == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Skillbook chat: say what you want (English or 中文). /help lists the commands; /quit leaves.")
        #expect(result.out.contains(#"agent: Run skill reminders.create with {"due":"2026-12-02T09:00:00+01:00","title":"call Ada"}?"#))
        #expect(result.out.contains("run it? [y/N]> agent: Done: {"))
        #expect(result.out.contains("you: remind me tomorrow 9am to call Ada\nagent: Run skill reminders.create"))
        // The run's steps, as `run` prints them off a terminal.
        #expect(result.err.contains("reminders_create"))
        let saved = try RemindersStore(stateDirectory: directory.state).list(includeDone: true)
        #expect(saved.map(\.title) == ["call Ada"])
        let runs = await skillbook(["runs", "--json"], in: directory)
        #expect(try JSONText.decode(runs.out).arrayValue?.compactMap { $0["playbook"]?.stringValue } == ["reminders-create"])
    }

    @Test func slashCommandsListSkillsAndPlaybooksAndQuitLeaves() async throws {
        let directory = askWorkspace()
        let result = try Self.chat("/skills\n/playbooks\n/help\n/skils\n/quit\nnever read\n", in: directory)
        #expect(result.code == 0)
        #expect(result.out.contains("Create a note [notes.create, action]\n  Saves a new note with a title"))
        #expect(result.out.contains("[notes.list, query]"))
        #expect(result.out.contains("day-note: Saves a note for a day.\n"))
        #expect(result.out.contains("  /skills     the skills: title, id and kind (query or action), summary\n"))
        #expect(result.out.contains("unknown command /skils; did you mean /skills? (/help lists them)\n"))
        #expect(!result.out.contains("never read"))
    }

    @Test func aMissingInputIsAskedADeclinedRunIsKeptAndNothingMatchedSaysSo() async throws {
        let directory = askWorkspace()
        let result = try Self.chat("note for tomorrow\nPlan the week\nn\nmake me a sandwich\n", in: directory)
        #expect(result.code == 0)
        #expect(result.out.contains("agent: What should 'title' be (the note's title)?\ntitle> agent: Run playbook day-note with"))
        #expect(result.out.contains("agent: Not run. Say y to run it after all, or ask for something else."))
        #expect(result.out.contains("agent: nothing matched this request.\n       nearest:"))
        #expect(try NotesStore(stateDirectory: directory.state).list().isEmpty)
    }
}

/// A pipe read to its end on a thread of its own.
final class DrainedPipe: Sendable {
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            let all = handle.readDataToEndOfFile()
            data.withLock { $0 = all }
            done.signal()
        }
    }

    /// Everything written, once the writer closed the pipe.
    func text() -> String {
        done.wait()
        return data.withLock { String(decoding: $0, as: UTF8.self) }
    }
}
