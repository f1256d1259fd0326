import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import Testing
import SkillbookSystem

@Suite struct ShellRunSkillTests {
    @Test func runsAnArgumentList() async throws {
        try await withHarness { harness in
            let output = try await harness.run("shell.run", ["argv": ["printf", "%s-%s", "a", "b"]])
            #expect(output == ["stdout": "a-b", "stderr": "", "exit_code": 0])
        }
    }

    @Test func runsInCwd() async throws {
        try await withHarness { harness in
            try await withTemporaryDirectory { directory in
                let output = try await harness.run("shell.run", ["argv": ["pwd"], "cwd": .string(directory.path)])
                #expect(output["stdout"] == .string(directory.path + "\n"))
            }
        }
    }

    @Test func seesOnlyPathHomeLangAndDeclaredVariables() async throws {
        // A variable of this process's environment, as the runner sees it.
        var inherited = ProcessInfo.processInfo.environment
        inherited["SKILLBOOK_TEST_LEAK"] = "leaked"
        let skill = ShellRunSkill(runner: ProcessRunner(inheritedEnvironment: inherited))
        let context = SkillContext(runID: "r", stepID: "s")

        let plain = try await skill.run(params(["argv": ["env"]]), context: context)
        let names = Set(plain["stdout"]?.stringValue?.split(separator: "\n").map { String($0.prefix { $0 != "=" }) } ?? [])
        #expect(!names.contains("SKILLBOOK_TEST_LEAK"))
        #expect(names.isSubset(of: ["PATH", "HOME", "LANG"]))
        #expect(names.contains("PATH"))

        let declared = try await skill.run(
            params(["argv": ["env"], "env": ["SKILLBOOK_TEST_LEAK": "given", "COUNT": 3]]), context: context)
        let lines = declared["stdout"]?.stringValue?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.contains("SKILLBOOK_TEST_LEAK=given"))
        #expect(lines.contains("COUNT=3"))
    }

    @Test func aNonZeroExitFailsWithTheCodeAndTheEndOfStderr() async throws {
        try await withHarness { harness in
            let script = "for i in 1 2 3 4 5 6 7; do echo line$i >&2; done; echo ignored; exit 3"
            await #expect(throws: SkillError("command 'sh' exited with code 3:\nline3\nline4\nline5\nline6\nline7")) {
                try await harness.run("shell.run", ["argv": ["sh", "-c", .string(script)]])
            }
        }
    }

    @Test func theTimeoutStopsTheCommand() async throws {
        try await withHarness { harness in
            let started = Date()
            await #expect(throws: SkillError("command 'sleep' timed out after 0.2 s and was stopped")) {
                try await harness.run("shell.run", ["argv": ["sleep", "60"], "timeout": 0.2])
            }
            #expect(Date().timeIntervalSince(started) < promptly)
        }
    }

    @Test func aMissingProgramIsAClearFailure() async throws {
        try await withHarness { harness in
            await #expect(throws: SkillError("command 'no-such-program-xyz' not found on PATH")) {
                try await harness.run("shell.run", ["argv": ["no-such-program-xyz"]])
            }
            await #expect(throws: SkillError("working directory '/no/such/dir' does not exist or is not a folder")) {
                try await harness.run("shell.run", ["argv": ["true"], "cwd": "/no/such/dir"])
            }
        }
    }

    @Test func cancellationStopsTheCommand() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("shell.run")
            let context = harness.context
            let task = Task { try await skill.run(params(["argv": ["sleep", "60"]]), context: context) }
            try await Task.sleep(for: .milliseconds(100))
            let started = Date()
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(Date().timeIntervalSince(started) < promptly)
        }
    }

    // MARK: Undo

    @Test func undoRunsTheUndoListInTheSameFolder() async throws {
        try await withHarness { harness in
            try await withTemporaryDirectory { directory in
                let skill = try harness.skill("shell.run")
                let parameters = params([
                    "argv": ["touch", "made.txt"], "undo": ["rm", "made.txt"], "cwd": .string(directory.path),
                ])
                let output = try await harness.run("shell.run", .object(parameters))
                let made = directory.appendingPathComponent("made.txt").path
                #expect(FileManager.default.fileExists(atPath: made))
                try await skill.compensate(CompletedCall(parameters: parameters, output: output), context: harness.context)
                #expect(!FileManager.default.fileExists(atPath: made))
            }
        }
    }

    @Test func withoutUndoACallCannotBeUndone() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("shell.run")
            #expect(skill.descriptor.reversible)
            let parameters = params(["argv": ["true"]])
            let output = try await skill.run(parameters, context: harness.context)
            await #expect(throws: SkillError("shell.run without 'undo' cannot be undone")) {
                try await skill.compensate(CompletedCall(parameters: parameters, output: output), context: harness.context)
            }
        }
    }

    @Test func aFailingUndoIsReported() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("shell.run")
            let parameters = params(["argv": ["true"], "undo": ["sh", "-c", "echo cannot >&2; exit 4"]])
            await #expect(throws: SkillError("undo command 'sh' exited with code 4:\ncannot")) {
                try await skill.compensate(CompletedCall(parameters: parameters, output: [:]), context: harness.context)
            }
        }
    }

    @Test func parametersAreChecked() async throws {
        try await withHarness { harness in
            let schema = try harness.skill("shell.run").descriptor.parameters
            #expect(!SchemaValidator.validate([:], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["argv": []], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["argv": "ls -la"], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["argv": ["ls"], "timeout": 0], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["argv": ["ls"], "timeout": 3601], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["argv": ["ls"], "shell": true], against: schema).isEmpty)
            #expect(SchemaValidator.validate(["argv": ["ls"], "undo": ["true"], "env": ["A": "b"]], against: schema).isEmpty)
        }
    }

    // MARK: Injection

    @Test func hostileArgumentsArriveAsLiteralSingleArguments() async throws {
        try await withHarness { harness in
            try await withTemporaryDirectory { directory in
                let home = directory.appendingPathComponent("home")
                try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
                let canary = home.appendingPathComponent("canary")
                try "still here".write(to: canary, atomically: true, encoding: .utf8)
                let hostile = ["\"; rm -rf $HOME #\"", "$(touch pwned)", "`touch pwned`", "; touch pwned", "| touch pwned"]
                let output = try await harness.run(
                    "shell.run",
                    [
                        "argv": .array(["printf", "<%s>\n"] + hostile.map(Value.string)), "cwd": .string(directory.path),
                        "env": ["HOME": .string(home.path)],
                    ])
                #expect(output["stdout"] == .string(hostile.map { "<\($0)>\n" }.joined()))
                #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("pwned").path))
                #expect(FileManager.default.fileExists(atPath: canary.path))
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["home"])
            }
        }
    }
}
