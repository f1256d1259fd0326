import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import Testing
import SkillbookSystem

private let printArguments = """
    id: demo.args
    summary: Prints each argument in brackets.
    kind: query
    parameters:
      type: object
      properties:
        items: { type: array, items: { type: string } }
        tail: { type: string }
        count: { type: integer }
        maybe: { type: string }
        flag: { type: boolean }
      required: [items]
    run:
      - printf
      - "[%s]\\n"
      - first
      - ${{ params.items }}
      - --tail=${{ params.tail }}
      - ${{ params.count }}
      - ${{ params.maybe }}
      - --maybe=${{ params.maybe }}
      - ${{ params.flag }}
      - last

    """

@Suite struct ManifestSkillTests {
    // MARK: Arguments

    @Test func aListParameterSplicesAsSeparateArguments() async throws {
        let skill = try manifestSkill(printArguments)
        let output = try await call(skill, ["items": ["a b", "c", "d'e"], "tail": "t x", "count": 3, "flag": false])
        #expect(output["stdout"] == "[first]\n[a b]\n[c]\n[d'e]\n[--tail=t x]\n[3]\n[false]\n[last]\n")
        #expect(output["stderr"] == "")
        #expect(output["exit_code"] == 0)
    }

    @Test func absentValuesLeaveTheirElementOut() async throws {
        let skill = try manifestSkill(printArguments)
        let output = try await call(skill, ["items": [], "maybe": "m"])
        #expect(output["stdout"] == "[first]\n[m]\n[--maybe=m]\n[last]\n")
    }

    @Test func defaultsAreApplied() async throws {
        let skill = try manifestSkill(
            """
            id: demo.greet
            summary: Greets.
            parameters:
              type: object
              properties:
                name: { type: string, default: world }
            run: [printf, "hello %s", "${{ params.name }}"]

            """)
        #expect(try await call(skill, [:])["stdout"] == "hello world")
        #expect(try await call(skill, ["name": "you"])["stdout"] == "hello you")
    }

    @Test func aNonZeroExitFailsWithTheCodeAndStderr() async throws {
        let skill = try manifestSkill(
            """
            id: demo.list
            summary: Lists a folder.
            parameters: { type: object, properties: { path: { type: string } }, required: [path] }
            run: [ls, --, "${{ params.path }}"]

            """)
        await #expect(
            throws: SkillError("command 'ls' exited with code 2:\nls: cannot access '/no/such/place': No such file or directory")
        ) {
            try await call(skill, ["path": "/no/such/place"])
        }
    }

    @Test func theTimeoutStopsTheCommand() async throws {
        let skill = try manifestSkill("id: demo.nap\nsummary: Naps.\nrun: [sleep, '60']\ntimeout: 300ms\n")
        let started = Date()
        await #expect(throws: SkillError("command 'sleep' timed out after 0.3 s and was stopped")) {
            try await call(skill, [:])
        }
        #expect(Date().timeIntervalSince(started) < promptly)
    }

    @Test func cancellationStopsTheCommand() async throws {
        let skill = try manifestSkill("id: demo.nap\nsummary: Naps.\nrun: [sleep, '60']\n")
        let task = Task { try await skill.run([:], context: SkillContext(runID: "r", stepID: "s")) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func onlyDeclaredVariablesArePassedThrough() async throws {
        let runner = ProcessRunner(inheritedEnvironment: [
            "PATH": "/usr/bin:/bin", "HOME": "/home/x", "SKILLBOOK_DECLARED": "yes", "SKILLBOOK_UNDECLARED": "no",
        ])
        let skill = try manifestSkill(
            "id: demo.env\nsummary: Shows the environment.\nrun: [env]\nenv: [SKILLBOOK_DECLARED, SKILLBOOK_NOT_SET]\n",
            runner: runner)
        let lines = Set(try await call(skill, [:])["stdout"]?.stringValue?.split(separator: "\n").map(String.init) ?? [])
        #expect(lines == ["PATH=/usr/bin:/bin", "HOME=/home/x", "SKILLBOOK_DECLARED=yes"])
    }

    @Test func commandsRunInTheWorkingDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let skill = try manifestSkill("id: demo.pwd\nsummary: Where.\nrun: [pwd]\n", workingDirectory: directory)
            #expect(try await call(skill, [:])["stdout"] == .string(directory.path + "\n"))
        }
    }

    @Test func anUnavailableSkillSaysWhyWhenRun() async throws {
        let skill = try manifestSkill("id: demo.tool\nsummary: Runs a tool.\nrun: [no-such-tool-xyz]\n")
        await #expect(throws: SkillError("skill 'demo.tool' is not available here: command 'no-such-tool-xyz' not found on PATH")) {
            try await skill.run([:], context: SkillContext(runID: "r", stepID: "s"))
        }
    }

    // MARK: Undo

    @Test func undoUsesParametersAndOutputFields() async throws {
        try await withTemporaryDirectory { directory in
            let skill = try manifestSkill(
                """
                id: demo.mark
                summary: Prints a name; undoing it leaves a mark.
                parameters:
                  type: object
                  properties:
                    name: { type: string }
                    folder: { type: string }
                  required: [name, folder]
                run: [printf, "%s", "${{ params.name }}"]
                undo: [touch, "${{ params.folder }}/undone-${{ output.stdout }}.txt"]

                """)
            #expect(skill.descriptor.reversible)
            #expect(!skill.descriptor.undoesFailedCalls, "its undo needs the output a failed call does not have")
            let parameters: Value = ["name": "report", "folder": .string(directory.path)]
            let output = try await call(skill, parameters)
            try await undo(skill, parameters, output: output)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("undone-report.txt").path))
        }
    }

    @Test func anUndoOfTheParametersAloneUndoesFailedCallsOfAnIdempotentSkill() throws {
        let yaml = """
            id: demo.pack
            summary: Packs.
            parameters: { type: object, properties: { archive: { type: string } }, required: [archive] }
            run: [tar, -czf, "${{ params.archive }}", .]
            undo: [rm, -f, --, "${{ params.archive }}"]

            """
        let plain = try manifestSkill(yaml)
        #expect(plain.descriptor.undoesFailedCalls)
        #expect(!plain.descriptor.compensatesFailedCalls, "not idempotent")
        let idempotent = try manifestSkill(yaml + "idempotent: true\n")
        #expect(idempotent.descriptor.compensatesFailedCalls)
        let json = try manifestSkill(yaml + "idempotent: true\nstdin: json\n")
        #expect(!json.descriptor.undoesFailedCalls, "a stdin: json undo reads the output")
    }

    @Test func withoutUndoTheSkillIsIrreversible() async throws {
        let skill = try manifestSkill("id: demo.date\nsummary: Prints the date.\nrun: [date]\n")
        #expect(!skill.descriptor.reversible)
        await #expect(throws: SkillError("skill 'demo.date' has no 'undo' and cannot be undone")) {
            try await undo(skill, [:], output: [:])
        }
    }

    @Test func aFailingUndoIsReported() async throws {
        let skill = try manifestSkill(
            "id: demo.rm\nsummary: s\nparameters: { type: object, properties: { path: { type: string } } }\n"
                + "run: ['true']\nundo: [rm, --, \"${{ params.path }}\"]\n")
        await #expect(throws: SkillError("undo command 'rm' exited with code 1:\nrm: cannot remove '/no/such/file': No such file or directory")) {
            try await undo(skill, ["path": "/no/such/file"], output: [:])
        }
    }

    // MARK: stdin: json

    /// A manifest and its Python script in a temporary folder; the script runs relative to it.
    private func withJSONSkill(_ body: (ManifestSkill, URL) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            try writeScript(
                "greet.py", in: directory,
                """
                #!/usr/bin/env python3
                import json, os, sys
                request = json.load(sys.stdin)
                params = request["params"]
                if params.get("mode") == "fail":
                    print("first line", file=sys.stderr)
                    print("the greeting failed", file=sys.stderr)
                    sys.exit(3)
                if params.get("mode") == "garbage":
                    print("this is not JSON")
                    sys.exit(0)
                if params.get("mode") == "list":
                    print("[1, 2]")
                    sys.exit(0)
                path = os.path.join(params["folder"], params["name"] + ".txt")
                with open(path, "w") as f:
                    f.write("hello")
                # ensure_ascii (the default) writes 😀 as a surrogate pair: \\ud83d\\ude00
                json.dump({"greeting": "Hello, " + params["name"] + "!", "path": path, "emoji": "😀",
                           "context": request["context"], "keys": list(request.keys()),
                           "nested": {"z": 1, "a": [1.5, True, None]}}, sys.stdout)

                """)
            try writeScript(
                "record.py", in: directory,
                """
                #!/usr/bin/env python3
                import sys
                with open(sys.argv[1], "w") as f:
                    f.write(sys.stdin.read())

                """)
            let skill = try manifestSkill(
                """
                id: demo.greet
                summary: Writes a greeting file.
                stdin: json
                parameters:
                  type: object
                  properties:
                    name: { type: string }
                    folder: { type: string }
                    mode: { type: string, enum: [normal, fail, garbage, list], default: normal }
                  required: [name, folder]
                output:
                  type: object
                  properties:
                    greeting: { type: string }
                    path: { type: string }
                    emoji: { type: string }
                    context: { type: object }
                    keys: { type: array, items: { type: string } }
                    nested: { type: object }
                  required: [greeting, path]
                run: [./greet.py]
                undo: [./record.py, "${{ output.path }}.undo"]

                """, manifestDirectory: directory)
            try await body(skill, directory)
        }
    }

    @Test func jsonCommandsReadParamsAndContextAndPrintTheirOutput() async throws {
        try await withJSONSkill { skill, directory in
            let context = SkillContext(runID: "run-42", stepID: "greet", attempt: 2)
            let output = try await call(skill, ["name": "Ann", "folder": .string(directory.path)], context: context)
            let path = directory.appendingPathComponent("Ann.txt").path
            #expect(
                output == [
                    "greeting": "Hello, Ann!", "path": .string(path), "emoji": "😀",
                    "context": ["run_id": "run-42", "step_id": "greet", "attempt": 2], "keys": ["params", "context"],
                    "nested": ["z": 1, "a": [1.5, true, nil]],
                ])
            // Key order is kept as the command printed it.
            #expect(output.objectValue?.keys == ["greeting", "path", "emoji", "context", "keys", "nested"])
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func jsonUndoGetsParamsOutputAndContextOnStdin() async throws {
        try await withJSONSkill { skill, directory in
            let parameters: Value = ["name": "Bo", "folder": .string(directory.path)]
            let output = try await call(skill, parameters)
            try await undo(skill, parameters, output: output)
            let recorded = try String(contentsOfFile: directory.appendingPathComponent("Bo.txt.undo").path, encoding: .utf8)
            let expected: Value = [
                "params": ["name": "Bo", "folder": .string(directory.path), "mode": "normal"], "output": output,
                "context": ["run_id": "run-7", "step_id": "step-3", "attempt": 1],
            ]
            #expect(recorded == JSONText.encode(expected))
        }
    }

    @Test func jsonCommandsThatFailOrPrintGarbageAreClearFailures() async throws {
        try await withJSONSkill { skill, directory in
            let folder = Value.string(directory.path)
            await #expect(throws: SkillError("command './greet.py' exited with code 3:\nfirst line\nthe greeting failed")) {
                try await call(skill, ["name": "x", "folder": folder, "mode": "fail"])
            }
            await #expect(
                throws: SkillError(
                    "command './greet.py' did not print its output as JSON (expected 'true' at offset 1); "
                        + "it printed: this is not JSON")
            ) {
                try await call(skill, ["name": "x", "folder": folder, "mode": "garbage"])
            }
            await #expect(throws: SkillError("command './greet.py' printed a JSON array; its output must be a JSON object")) {
                try await call(skill, ["name": "x", "folder": folder, "mode": "list"])
            }
        }
    }

    // MARK: Injection

    @Test(arguments: ["\"; rm -rf $HOME #\"", "$(touch pwned)", "`touch pwned`", "a; touch pwned", "x && touch pwned | cat"])
    func hostileValuesArriveAsLiteralSingleArguments(_ hostile: String) async throws {
        try await withTemporaryDirectory { directory in
            let home = directory.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let canary = home.appendingPathComponent("canary")
            try "still here".write(to: canary, atomically: true, encoding: .utf8)
            let runner = ProcessRunner(inheritedEnvironment: ["PATH": testRunner.searchPath, "HOME": home.path])
            let skill = try manifestSkill(
                """
                id: demo.echo
                summary: Echoes text.
                kind: query
                parameters:
                  type: object
                  properties:
                    text: { type: string }
                    more: { type: array, items: { type: string } }
                  required: [text]
                run: [/bin/echo, "${{ params.text }}"]

                """, runner: runner, workingDirectory: directory)
            let echoed = try await call(skill, ["text": .string(hostile)])
            #expect(echoed["stdout"] == .string(hostile + "\n"))

            let printing = try manifestSkill(
                """
                id: demo.print
                summary: Prints each argument in brackets.
                kind: query
                parameters:
                  type: object
                  properties:
                    text: { type: string }
                    more: { type: array, items: { type: string } }
                  required: [text]
                run: [printf, "<%s>\\n", "${{ params.text }}", "text=${{ params.text }}", "${{ params.more }}"]

                """, runner: runner, workingDirectory: directory)
            let printed = try await call(printing, ["text": .string(hostile), "more": [.string(hostile), "$(touch pwned)"]])
            #expect(printed["stdout"] == .string("<\(hostile)>\n<text=\(hostile)>\n<\(hostile)>\n<$(touch pwned)>\n"))

            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("pwned").path))
            #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/pwned"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["home"])
            #expect(try String(contentsOf: canary, encoding: .utf8) == "still here")
        }
    }
}
