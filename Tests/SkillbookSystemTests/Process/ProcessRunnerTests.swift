import SkillbookTesting
import SkillbookCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SkillbookSystem
import Testing

@Suite struct ProcessRunnerTests {
    // MARK: Exit status and output

    @Test(arguments: [("exit 0", 0), ("exit 1", 1), ("exit 7", 7), ("exit 255", 255)] as [(String, Int32)])
    func reportsTheExitCode(script: String, code: Int32) async throws {
        let result = try await testRunner.run(ProcessRequest(["sh", "-c", script]))
        #expect(result.termination == .exited(code))
        #expect(result.exitCode == Int(code))
        #expect(result.succeeded == (code == 0))
        #expect(!result.timedOut)
    }

    @Test func reportsTheSignalThatEndedIt() async throws {
        let result = try await testRunner.run(ProcessRequest(["sh", "-c", "kill -9 $$"]))
        #expect(result.termination == .signalled(9))
        #expect(result.exitCode == 137)
        #expect(result.termination.description == "was killed by signal 9 (SIGKILL)")
    }

    @Test func capturesStdoutAndStderrSeparately() async throws {
        let result = try await testRunner.run(ProcessRequest(["sh", "-c", "echo out; echo err >&2; echo more"]))
        #expect(result.outputText == "out\nmore\n")
        #expect(result.errorText == "err\n")
        #expect(result.executable == "/usr/bin/sh" || result.executable == "/bin/sh")
    }

    @Test func argumentsArriveExactlyAsGiven() async throws {
        let tricky = ["a b", "'quoted'", "\"double\"", "$HOME", "$(touch pwned)", "; rm -rf / #", "*", "", "ünï©ødé"]
        try await withTemporaryDirectory { directory in
            let result = try await testRunner.run(
                ProcessRequest(["printf", "[%s]\n"] + tricky, workingDirectory: directory.path))
            #expect(result.outputText == tricky.map { "[\($0)]\n" }.joined())
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test func aChildIsSetUpTheSameWhetherItDiesWithTheRunnerOrNot() async throws {
        // Both ways: its own process group, default signals, only 0-2 open, the working directory.
        let script = "ps -o pgid= -p $$ | tr -d ' '; echo $$; ls /proc/self/fd | sort -n | tr '\\n' ' '; echo; pwd"
        try await withTemporaryDirectory { directory in
            for detached in [false, true] {
                let result = try await testRunner.run(
                    ProcessRequest(["sh", "-c", script], workingDirectory: directory.path, detached: detached))
                let lines = result.outputText.split(separator: "\n").map(String.init)
                #expect(lines.count == 4, "\(result.outputText)")
                #expect(lines.first == lines.dropFirst().first, "the child leads its own process group (detached: \(detached))")
                #expect(lines.dropFirst(3).first == directory.path)
                #expect(lines.dropFirst(2).first == "0 1 2 3 ", "only stdin, stdout, stderr (and ls's own): \(lines)")
            }
            let missing = directory.appendingPathComponent("missing").path
            await #expect(throws: ProcessRunnerError.self) {
                try await testRunner.run(ProcessRequest(["pwd"], workingDirectory: missing))
            }
        }
    }

    @Test func runsInTheWorkingDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let result = try await testRunner.run(ProcessRequest(["pwd"], workingDirectory: directory.path))
            #expect(result.outputText == directory.path + "\n")
        }
    }

    @Test func theRunnersFolderIsTheDefaultAndTheBaseOfRelativeFolders() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
            let runner = ProcessRunner(workingDirectory: directory.path)
            #expect(try await runner.run(ProcessRequest(["pwd"])).outputText == directory.path + "\n")
            #expect(
                try await runner.run(ProcessRequest(["pwd"], workingDirectory: "sub")).outputText
                    == directory.path + "/sub\n")
            await #expect(throws: ProcessRunnerError.workingDirectoryMissing("missing")) {
                try await runner.run(ProcessRequest(["pwd"], workingDirectory: "missing"))
            }
        }
    }

    // MARK: Large output, stdin

    @Test func fiveMegabytesOnStdoutAreTruncatedWithoutDeadlock() async throws {
        // A deadlock would end in the 30 s timeout, not in a clean exit.
        let result = try await testRunner.run(
            ProcessRequest(["head", "-c", "5242880", "/dev/zero"], timeout: 30))
        #expect(result.succeeded)
        #expect(result.standardOutput.count == ProcessRequest.defaultOutputLimit)
        #expect(result.standardOutputTruncated)
        #expect(!result.standardErrorTruncated)
    }

    @Test func bothStreamsFullAtOnceDoNotDeadlock() async throws {
        let script = "head -c 3000000 /dev/zero >&2; head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2"
        let result = try await testRunner.run(ProcessRequest(["sh", "-c", script], timeout: 30, outputLimit: 10))
        #expect(result.succeeded)
        #expect(result.standardOutput == Data(count: 10))
        #expect(result.standardError == Data(count: 10))
        #expect(result.standardOutputTruncated && result.standardErrorTruncated)
    }

    @Test func outputUnderTheLimitIsKeptWhole() async throws {
        let result = try await testRunner.run(ProcessRequest(["head", "-c", "300000", "/dev/zero"]))
        #expect(result.standardOutput.count == 300_000)
        #expect(!result.standardOutputTruncated)
    }

    @Test func truncationNeverCutsACharacterInHalf() {
        let text = "ab€"  // € is three bytes
        for cut in 0...5 {
            let data = Data(text.utf8.prefix(cut))
            let result = ProcessResult(
                executable: "/x", termination: .exited(0), standardOutput: data, standardOutputTruncated: true)
            #expect(!result.outputText.contains("\u{FFFD}"), "cut at \(cut)")
            #expect(result.outputText == (cut >= 5 ? "ab€" : String("ab".prefix(cut))))
        }
    }

    @Test func largeStdinReachesTheChild() async throws {
        let input = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let result = try await testRunner.run(
            ProcessRequest(["cat"], standardInput: input, timeout: 30, outputLimit: 4 << 20))
        #expect(result.succeeded)
        #expect(result.standardOutput == input)
    }

    @Test func aChildThatIgnoresStdinDoesNotHurtTheRunner() async throws {
        // Writing to a pipe nobody reads raises SIGPIPE; the runner must take EPIPE instead of dying.
        let input = Data(count: 4 << 20)
        let result = try await testRunner.run(ProcessRequest(["true"], standardInput: input, timeout: 30))
        #expect(result.succeeded)
    }

    @Test func withoutStdinTheChildReadsEndOfFile() async throws {
        let result = try await testRunner.run(ProcessRequest(["cat"], timeout: 5))
        #expect(result.succeeded)
        #expect(result.standardOutput.isEmpty)
    }

    // MARK: Environment

    @Test func theEnvironmentIsCleanPlusWhatIsDeclared() async throws {
        let runner = ProcessRunner(inheritedEnvironment: [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/home/someone", "LANG": "C.UTF-8",
            "SECRET_TOKEN": "hunter2", "TZ": "Europe/Berlin", "EDITOR": "vim",
        ])
        let result = try await runner.run(
            ProcessRequest(["env"], environment: ["GREETING": "hello world"], passedThrough: ["TZ", "NOT_SET"]))
        let lines = Set(result.outputText.split(separator: "\n").map(String.init))
        #expect(
            lines == [
                "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/someone", "LANG=C.UTF-8", "TZ=Europe/Berlin",
                "GREETING=hello world",
            ])
    }

    @Test func aPathIsAlwaysThere() async throws {
        let runner = ProcessRunner(inheritedEnvironment: [:])
        let result = try await runner.run(ProcessRequest(["env"]))
        #expect(result.outputText == "PATH=\(ProcessRunner.fallbackSearchPath)\n")
    }

    // MARK: Finding the command

    @Test func namesAreResolvedOnThePath() throws {
        let runner = ProcessRunner(inheritedEnvironment: ["PATH": "relative/bin::/usr/bin:/bin"])
        let path = try #require(runner.locate("sh"))
        #expect(path == "/usr/bin/sh")
        #expect(runner.locate("no-such-command-here") == nil)
        #expect(runner.locate("/bin/sh") == "/bin/sh")
        #expect(runner.locate("/etc/passwd") == nil)
        #expect(runner.locate("/tmp") == nil)
    }

    @Test func aMissingCommandIsReportedByName() async throws {
        await #expect(throws: ProcessRunnerError.commandNotFound("no-such-command-here", searchPath: testRunner.searchPath)) {
            try await testRunner.run(ProcessRequest(["no-such-command-here", "x"]))
        }
        let error = ProcessRunnerError.commandNotFound("git", searchPath: "/bin")
        #expect(error.description == "command 'git' not found on PATH")
    }

    @Test func badRequestsAreRefusedBeforeAnythingRuns() async throws {
        await #expect(throws: ProcessRunnerError.emptyCommand) { try await testRunner.run(ProcessRequest([])) }
        await #expect(throws: ProcessRunnerError.workingDirectoryMissing("/no/such/folder")) {
            try await testRunner.run(ProcessRequest(["true"], workingDirectory: "/no/such/folder"))
        }
        await #expect(throws: ProcessRunnerError.nulByte("argument 'a\\0b'")) {
            try await testRunner.run(ProcessRequest(["echo", "a\0b"]))
        }
        await #expect(throws: ProcessRunnerError.invalidVariableName("A=B")) {
            try await testRunner.run(ProcessRequest(["true"], environment: ["A=B": "c"]))
        }
        await #expect(throws: ProcessRunnerError.notExecutable("/etc/passwd")) {
            try await testRunner.run(ProcessRequest(["/etc/passwd"]))
        }
    }

    // MARK: Timeout and cancellation

    @Test func aTimeoutStopsSleepQuickly() async throws {
        let started = Date()
        let result = try await testRunner.run(ProcessRequest(["sleep", "60"], timeout: 0.2))
        #expect(result.timedOut)
        #expect(!result.succeeded)
        #expect(result.termination == .signalled(15))
        #expect(result.duration >= 0.2 && result.duration < 2, "died after \(result.duration) s")
        #expect(Date().timeIntervalSince(started) < promptly)
    }

    @Test func aTimeoutStopsTheChildrenToo() async throws {
        let started = Date()
        let result = try await testRunner.run(
            ProcessRequest(["sh", "-c", "sleep 60 & echo $!; sleep 60 & echo $!; wait"], timeout: 0.3))
        let pids = result.outputText.split(separator: "\n").compactMap { Int32($0) }
        #expect(result.timedOut)
        #expect(result.duration < 2, "died after \(result.duration) s")
        #expect(pids.count == 2)
        #expect(Date().timeIntervalSince(started) < promptly)
        for pid in pids { #expect(await eventually(within: promptly) { processIsGone(pid) }, "grandchild \(pid) survived") }
    }

    @Test func whatIgnoresSigtermIsKilledAfterTheGracePeriod() async throws {
        let started = Date()
        let result = try await testRunner.run(
            ProcessRequest(
                ["sh", "-c", "trap '' TERM; sleep 60 & echo $!; wait"], timeout: 0.2, killGracePeriod: 0.5))
        #expect(result.timedOut)
        #expect(result.termination == .signalled(9))
        // SIGTERM at 0.2 s is ignored; SIGKILL follows 0.5 s later.
        #expect(result.duration >= 0.7 && result.duration < 2.5, "died after \(result.duration) s")
        #expect(Date().timeIntervalSince(started) < promptly)
        let pid = try #require(Int32(result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await eventually(within: promptly) { processIsGone(pid) })
    }

    @Test func outputHeldOpenByAProcessThatLeftTheGroupIsGivenUpOn() async throws {
        // `setsid` takes the sleep out of the group, so the group kill cannot reach it, and it keeps
        // stdout open: the runner must stop waiting for end of file after SIGKILL's grace period.
        let started = Date()
        let result = try await testRunner.run(
            ProcessRequest(["sh", "-c", "setsid sleep 60 & echo $!"], timeout: 0.3, killGracePeriod: 0.2))
        let pid = try #require(Int32(result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGKILL) }
        #expect(result.timedOut)
        #expect(result.termination == .exited(0))
        #expect(Date().timeIntervalSince(started) < promptly)
        #expect(!processIsGone(pid), "the escaped process is beyond the group kill, as expected")
    }

    @Test func cancellationStopsTheProcessGroupAndThrows() async throws {
        try await withTemporaryDirectory { directory in
            let pidFile = directory.appendingPathComponent("pids").path
            let request = ProcessRequest(
                ["sh", "-c", "sleep 60 & echo $! > \"$0\"; echo $$ >> \"$0\"; wait", pidFile], timeout: 60)
            let task = Task { try await testRunner.run(request) }
            #expect(await eventually(within: promptly) { (try? String(contentsOfFile: pidFile, encoding: .utf8))?.split(separator: "\n").count == 2 })
            let started = Date()
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(Date().timeIntervalSince(started) < promptly)
            let pids = try String(contentsOfFile: pidFile, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
            for pid in pids { #expect(await eventually(within: promptly) { processIsGone(pid) }, "\(pid) survived cancellation") }
        }
    }

    @Test func aCancelledTaskStartsNothing() async throws {
        try await withTemporaryDirectory { directory in
            let marker = directory.appendingPathComponent("ran").path
            let task = Task {
                while !Task.isCancelled { await Task.yield() }
                return try await testRunner.run(ProcessRequest(["touch", marker]))
            }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(!FileManager.default.fileExists(atPath: marker))
        }
    }

    @Test func manyChildrenAtOnce() async throws {
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask { try await testRunner.run(ProcessRequest(["printf", "%s", "\(index)"])).outputText }
            }
            var seen: Set<String> = []
            for try await output in group { seen.insert(output) }
            #expect(seen == Set((0..<20).map(String.init)))
        }
    }
}
