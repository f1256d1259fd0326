import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SkillbookCore
import SkillbookSystem
import Testing

/// `ProcessRunner.spawn`: a child started exactly as asked, left to its caller to wait for.
@Suite struct ProcessRunnerSpawnTests {
    /// Spawns `arguments` (the program found on PATH) with its stdout on a pipe, reads it to the
    /// end and reaps the child: what it printed and its raw wait status.
    func spawnAndRead(
        _ arguments: [String], environment: [String] = [], workingDirectory: String? = nil
    ) throws -> (output: String, status: Int32) {
        let executable = try #require(testRunner.locate(arguments[0]))
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: Int32
        do {
            pid = try ProcessRunner.spawn(
                executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
                standardOutput: fds[1], standardError: fds[1])
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output.append(contentsOf: buffer[0..<count])
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (String(decoding: output, as: UTF8.self), status)
    }

    @Test func theChildGetsExactlyTheArgumentsEnvironmentAndFolderGiven() throws {
        let tricky = ["a b", "'quoted'", "$HOME", "$(touch pwned)", "*", "", "ünï©ødé"]
        let printed = try spawnAndRead(["printf", "[%s]\n"] + tricky)
        #expect(printed.output == tricky.map { "[\($0)]\n" }.joined())
        #expect(printed.status == 0)

        let environment = try spawnAndRead(["env"], environment: ["B=two words", "A=1"])
        #expect(environment.output == "B=two words\nA=1\n")

        let folder = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        #expect(try spawnAndRead(["pwd"], workingDirectory: folder).output == folder + "\n")
        // stdin not given: /dev/null, read to its end at once.
        #expect(try spawnAndRead(["cat"]).status == 0)
    }

    @Test func theChildLeadsAProcessGroupOfItsOwnAndIsLeftToTheCaller() throws {
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(devNull) }
        let pid = try ProcessRunner.spawn(
            executable: try #require(testRunner.locate("sleep")), arguments: ["sleep", "30"], environment: [],
            standardOutput: devNull, standardError: devNull)
        #expect(getpgid(pid) == pid)
        // Nothing reaps it but the caller: it is still there to signal.
        #expect(kill(pid, 0) == 0)
        #expect(kill(-pid, SIGKILL) == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == SIGKILL)
    }

    @Test func whatCannotBeStartedIsRefusedBeforeAnythingRuns() throws {
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(devNull) }
        func spawn(_ executable: String, _ arguments: [String], _ environment: [String] = []) throws(ProcessRunnerError) {
            _ = try ProcessRunner.spawn(
                executable: executable, arguments: arguments, environment: environment, standardOutput: devNull,
                standardError: devNull)
        }
        #expect(throws: ProcessRunnerError.emptyCommand) { try spawn("/bin/true", []) }
        #expect(throws: ProcessRunnerError.notExecutable("true")) { try spawn("true", ["true"]) }
        #expect(throws: ProcessRunnerError.nulByte("argument 'a\\0b'")) { try spawn("/bin/true", ["true", "a\0b"]) }
        #expect(throws: ProcessRunnerError.invalidVariableName("NOEQUALS")) { try spawn("/bin/true", ["true"], ["NOEQUALS"]) }
        #expect(throws: ProcessRunnerError.nulByte("variable A")) { try spawn("/bin/true", ["true"], ["A=x\0y"]) }
        let missing = "/nonexistent/skillbook-no-such-program"
        let error = try #require(throws: ProcessRunnerError.self) { try spawn(missing, [missing]) }
        #expect(error == .startFailed(missing, reason: "No such file or directory"), "\(error)")
    }
}
