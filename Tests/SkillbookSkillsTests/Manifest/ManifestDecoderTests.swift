import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

/// A manifest that must be refused, with the diagnostics it must produce.
struct BrokenManifest: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    /// `LINE:COLUMN: error: message`, after the file name.
    var expected: [String]

    var testDescription: String { name }
}

private let head = "id: demo.echo\nsummary: Echoes.\n"

let brokenManifests: [BrokenManifest] = [
    BrokenManifest(
        name: "empty file", yaml: "",
        expected: ["1:1: error: the manifest is empty; it needs at least 'id', 'summary' and 'run'"]),
    BrokenManifest(
        name: "root is a list", yaml: "- id: a.b\n",
        expected: ["1:1: error: a skill manifest must be a mapping with 'id', 'summary' and 'run', not a list"]),
    BrokenManifest(
        name: "YAML syntax", yaml: head + "run: [echo, hi\n",
        expected: [
            "4:1: error: YAML syntax: did not find expected ',' or ']' (while parsing a flow sequence at line 3, column 6)"
        ]),
    BrokenManifest(
        name: "unknown key with suggestion", yaml: head + "run: [echo]\nidempotant: true\n",
        expected: ["4:1: error: unknown manifest key 'idempotant'; did you mean 'idempotent'?"]),
    BrokenManifest(
        name: "unknown key without suggestion", yaml: head + "run: [echo]\nshell: bash\n",
        expected: ["4:1: error: unknown manifest key 'shell'"]),
    BrokenManifest(
        name: "bad id", yaml: "id: Git-Status\nsummary: s\nrun: [git]\n",
        expected: [
            "1:5: error: skill id 'Git-Status' must have the form domain.name (lowercase letters, digits and '_'), "
                + "optionally with a version such as '@2'"
        ]),
    BrokenManifest(
        name: "missing id, summary and run", yaml: "title: Nothing\n",
        expected: [
            "1:1: error: the manifest is missing 'id' (the skill's name, such as 'git.status')",
            "1:1: error: the manifest is missing 'summary' (what the skill does, for people and the model)",
            "1:1: error: the manifest is missing 'run' (the command and its arguments, as a list)",
        ]),
    BrokenManifest(
        name: "run as a command line", yaml: head + "run: git status --short\n",
        expected: [
            "3:6: error: 'run' must be a list: the command, then its arguments, e.g. [git, status] (it never goes through a shell)"
        ]),
    BrokenManifest(
        name: "empty run", yaml: head + "run: []\n",
        expected: ["3:6: error: 'run' is empty; it needs at least the command"]),
    BrokenManifest(
        name: "nested list in run", yaml: head + "run: [echo, [a, b]]\n",
        expected: ["3:13: error: each element of 'run' must be text (one argument), not a list"]),
    BrokenManifest(
        name: "wrong types", yaml: head + "run: [echo]\nconfirm: maybe\ntags: files\ntitle: [a]\ntimeout: -3\n",
        expected: [
            "4:10: error: 'confirm' must be true or false",
            "5:7: error: 'tags' must be a list of text",
            "6:8: error: 'title' must be text, not a list",
            "7:10: error: 'timeout' must be a positive duration such as 30, 30s, 5m or 1h",
        ]),
    BrokenManifest(
        name: "kind typo", yaml: head + "run: [echo]\nkind: qurey\n",
        expected: ["4:7: error: 'kind' must be query or action; did you mean 'query'?"]),
    BrokenManifest(
        name: "unknown parameter", yaml: head + declaring("text") + "run: [echo, \"${{ params.txt }}\"]\n",
        expected: ["8:25: error: 'run' refers to unknown parameter 'txt'; did you mean 'text'?"]),
    BrokenManifest(
        name: "unknown parameter inside text, plain scalar",
        yaml: head + declaring("text") + "run:\n  - echo\n  - --text=${{ params.body }}\n",
        expected: ["10:23: error: 'run' refers to unknown parameter 'body'"]),
    BrokenManifest(
        name: "anything but params in run", yaml: head + declaring("text") + "run: [echo, \"${{ env.HOME }}\", \"${{ length(params.text) }}\"]\n",
        expected: [
            "8:14: error: 'run' can only use ${{ params.NAME }}, not 'env.HOME'",
            "8:33: error: 'run' can only use ${{ params.NAME }}, not 'length(params.text)'",
        ]),
    BrokenManifest(
        name: "output in run", yaml: head + "run: [echo, \"${{ output.stdout }}\"]\n",
        expected: ["3:14: error: 'run' can only use ${{ params.NAME }}, not 'output.stdout'"]),
    BrokenManifest(
        name: "undeclared output field in undo", yaml: head + "run: [touch, x]\nundo: [rm, \"${{ output.path }}\"]\n",
        expected: ["4:24: error: 'undo' refers to output field 'path', which the skill does not output"]),
    BrokenManifest(
        name: "list parameter inside text", yaml: head + listParameter + "run: [tar, \"--files=${{ params.paths }}\"]\n",
        expected: [
            "9:21: error: parameter 'paths' is a list, which cannot be put inside text; make it a whole element, "
                + "\"${{ params.paths }}\", to pass each item as its own argument"
        ]),
    BrokenManifest(
        name: "command from a parameter", yaml: head + declaring("tool") + "run: [\"${{ params.tool }}\", --version]\n",
        expected: ["8:7: error: the command (the first element of 'run') must be written out, not taken from a parameter"]),
    BrokenManifest(
        name: "unterminated expression", yaml: head + declaring("text") + "run: [echo, \"${{ params.text\"]\n",
        expected: ["8:14: error: unterminated expression: '${{' without '}}'"]),
    BrokenManifest(
        name: "parameters written as a map of names",
        yaml: head + "parameters:\n  text: { type: string }\n  count: { type: integer }\nrun: [echo]\n",
        expected: [
            "4:3: error: 'parameters' is an object schema: write 'type: object' and put 'text', 'count' under 'properties' "
                + "(with 'required: [...]' for the ones a call must give)"
        ]),
    BrokenManifest(
        name: "schema problems inside parameters",
        yaml: head + "parameters:\n  type: object\n  properties:\n    text: { type: strng }\nrun: [echo]\n",
        expected: ["6:19: error: unknown type 'strng'; did you mean 'string'?"]),
    BrokenManifest(
        name: "parameters not an object", yaml: head + "parameters: { type: string }\nrun: [echo]\n",
        expected: ["3:13: error: 'parameters' must be an object schema: { type: object, properties: …, required: [...] }"]),
    BrokenManifest(
        name: "output without stdin json", yaml: head + "run: [echo]\noutput: { type: object }\n",
        expected: [
            "4:1: error: 'output' can be declared only with 'stdin: json'; a command that takes arguments outputs "
                + "{ stdout, stderr, exit_code }"
        ]),
    BrokenManifest(
        name: "stdin other than json", yaml: head + "run: [echo]\nstdin: yaml\n",
        expected: [
            "4:8: error: 'stdin' must be 'json' (the command then reads {\"params\", \"context\"} as JSON and prints its output as JSON)"
        ]),
    BrokenManifest(
        name: "bad env name", yaml: head + "run: [echo]\nenv: [TZ, MY-VAR]\n",
        expected: ["4:11: error: 'env' lists the names of environment variables to pass on; 'MY-VAR' is not a valid name"]),
    BrokenManifest(
        name: "duplicate key", yaml: head + "run: [echo]\nrun: [true]\n",
        expected: ["4:1: error: duplicate key 'run' (first defined at line 3, column 1)"]),
]

/// `parameters:` declaring string parameters (lines 3 to 7 after `head` for one name).
private func declaring(_ names: String...) -> String {
    "parameters:\n  type: object\n  properties:\n"
        + names.map { "    \($0): { type: string }\n" }.joined() + "  required: [\(names.joined(separator: ", "))]\n"
}

private let listParameter =
    "parameters:\n  type: object\n  properties:\n    paths: { type: array, items: { type: string } }\n    name: { type: string }\n  required: [paths]\n"

@Suite struct ManifestDecoderTests {
    @Test(arguments: brokenManifests)
    func refusesBrokenManifests(_ broken: BrokenManifest) {
        #expect(manifestProblems(broken.yaml) == broken.expected)
    }

    @Test func decodesEveryKey() throws {
        let skill = try manifestSkill(
            """
            id: demo.copy@2
            title: Copy a file
            summary: Copies one file.
            examples: [copy this file, duplicate the file]
            tags: [files]
            kind: action
            confirm: true
            parameters:
              type: object
              properties:
                from: { type: string, description: The file to copy. }
                to: { type: string, description: Where the copy goes. }
              required: [from, to]
            run: [cp, --, "${{ params.from }}", "${{ params.to }}"]
            undo: [rm, --, "${{ params.to }}"]
            timeout: 2m
            resources: [files]
            env: [TZ]
            idempotent: true

            """)
        let descriptor = skill.descriptor
        #expect(descriptor.id == "demo.copy@2")
        #expect(descriptor.title == "Copy a file")
        #expect(descriptor.summary == "Copies one file.")
        #expect(descriptor.examples == ["copy this file", "duplicate the file"])
        #expect(descriptor.tags == ["files"])
        #expect(descriptor.kind == .action)
        #expect(descriptor.confirm)
        #expect(descriptor.parameters.properties.map(\.name) == ["from", "to"])
        #expect(descriptor.parameters.required == ["from", "to"])
        #expect(descriptor.parameters.additionalProperties == false)
        #expect(descriptor.output == SkillManifest.commandOutput)
        #expect(descriptor.timeout == 120)
        #expect(descriptor.resources == ["files"])
        #expect(descriptor.idempotent)
        #expect(descriptor.reversible)
        #expect(descriptor.availability == .available)
        #expect(skill.manifest.environment == ["TZ"])
        #expect(skill.manifest.idLocation == SkillbookCore.SourceLocation(file: "Skills/test.yaml", line: 1, column: 5))
        #expect(skill.manifest.run.command == "cp")
        #expect(skill.manifest.run.references == [.parameter("from"), .parameter("to")])
    }

    @Test func aSecretPassedOnTheCommandLineIsWarnedAbout() throws {
        let parameters = """
            parameters:
              type: object
              properties:
                user: { type: string }
                token: { type: string, secret: true }

            """
        let warned = manifestProblems(
            "id: demo.login\nsummary: Logs in.\n" + parameters
                + "run: [login, --user, \"${{ params.user }}\", \"--token=${{ params.token }}\"]\n"
                + "undo: [logout, \"${{ params.token }}\"]\n")
        #expect(
            warned == [
                "8:6: warning: 'run' passes secret parameter 'token' on the command line, where other users of this machine "
                    + "can read it (ps, /proc)",
                "9:7: warning: 'undo' passes secret parameter 'token' on the command line, where other users of this machine "
                    + "can read it (ps, /proc)",
            ])
        let (skill, _) = ManifestLoader(runner: testRunner).load(
            "id: demo.login\nsummary: Logs in.\n" + parameters + "run: [login, \"${{ params.token }}\"]\n", file: "Skills/x.yaml")
        #expect(skill != nil, "a warning does not refuse the manifest")
        #expect(manifestProblems("id: demo.login\nsummary: Logs in.\n" + parameters + "stdin: json\nrun: [login]\n").isEmpty)
    }

    @Test func secretsInsideListsAndOutputsAreWarnedAboutToo() throws {
        let yaml = """
            id: demo.vault
            summary: Opens a vault.
            parameters:
              type: object
              properties:
                keys: { type: array, items: { type: string, secret: true } }
            stdin: json
            output:
              type: object
              properties:
                session: { type: string, secret: true }
            run: [vault, open, "${{ params.keys }}"]
            undo: [vault, close, "${{ output.session }}"]

            """
        let (_, diagnostics) = ManifestLoader(runner: testRunner).load(yaml, file: "Skills/x.yaml")
        #expect(
            diagnostics.map(\.message) == [
                "'run' passes secret parameter 'keys' on the command line, where other users of this machine can read it (ps, /proc)",
                "'undo' passes secret output field 'session' on the command line, where other users of this machine can read it "
                    + "(ps, /proc)",
            ])
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(diagnostics.first?.hint == "leave it out of 'run': the command reads it from the JSON on its standard input")
    }

    @Test func defaultsAreSafe() throws {
        let skill = try manifestSkill("id: demo.date\nsummary: Prints the date.\nrun: [date]\n")
        #expect(skill.descriptor.kind == .action)
        #expect(!skill.descriptor.confirm)
        #expect(!skill.descriptor.reversible)
        #expect(!skill.descriptor.idempotent)
        #expect(skill.descriptor.timeout == 60)
        #expect(skill.descriptor.title == "demo.date")
        #expect(skill.descriptor.parameters.type == .object)
        #expect(skill.descriptor.parameters.additionalProperties == false)
        #expect(SchemaValidator.validate(["extra": 1], against: skill.descriptor.parameters).count == 1)
    }

    @Test func aMissingCommandMakesTheSkillUnavailable() throws {
        let skill = try manifestSkill("id: demo.tool\nsummary: Runs a tool.\nrun: [no-such-tool-xyz, --help]\n")
        #expect(skill.descriptor.availability == .unavailable(reason: "command 'no-such-tool-xyz' not found on PATH"))
        let undoMissing = try manifestSkill("id: demo.tool\nsummary: s\nrun: [true]\nundo: [no-such-undo-xyz]\n")
        #expect(undoMissing.descriptor.availability == .unavailable(reason: "undo command 'no-such-undo-xyz' not found on PATH"))
    }

    @Test func theDirectoryIsLoadedInOrderAndDuplicatesAreErrors() async throws {
        try await withTemporaryDirectory { directory in
            try "id: demo.one\nsummary: s\nrun: [true]\n".write(to: directory.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
            try "id: demo.two\nsummary: s\nrun: [true]\n".write(to: directory.appendingPathComponent("b.yml"), atomically: true, encoding: .utf8)
            try "\nid: demo.one\nsummary: s\nrun: [true]\n".write(to: directory.appendingPathComponent("c.yaml"), atomically: true, encoding: .utf8)
            try "id: demo.bad\nsumary: s\nrun: [true]\n".write(to: directory.appendingPathComponent("d.yaml"), atomically: true, encoding: .utf8)
            try "not a manifest".write(to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
            let result = ManifestLoader(runner: testRunner).load(directory: directory) { $0.lastPathComponent }
            #expect(result.skills.map(\.manifest.id) == ["demo.one", "demo.two"])
            #expect(
                result.diagnostics.map(\.description) == [
                    "c.yaml:2:5: error: skill 'demo.one' is already declared at a.yaml:1:5; skill ids must be unique",
                    "d.yaml:1:1: error: the manifest is missing 'summary' (what the skill does, for people and the model)",
                    "d.yaml:2:1: error: unknown manifest key 'sumary'; did you mean 'summary'?",
                ])
            #expect(Set(result.sources.keys) == ["a.yaml", "b.yml", "c.yaml", "d.yaml"])
        }
    }

    @Test func registeringOverABuiltinSkillIsAnError() async throws {
        try await withTemporaryDirectory { directory in
            try "id: debug.echo\nsummary: s\nrun: [true]\n".write(to: directory.appendingPathComponent("echo.yaml"), atomically: true, encoding: .utf8)
            try "id: demo.fine\nsummary: s\nrun: [true]\n".write(to: directory.appendingPathComponent("fine.yaml"), atomically: true, encoding: .utf8)
            let other = directory.appendingPathComponent("more")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            try "id: demo.fine\nsummary: s\nrun: [true]\n".write(to: other.appendingPathComponent("again.yaml"), atomically: true, encoding: .utf8)
            var registry = try SkillRegistry(BuiltinSkills.all(environment: SkillEnvironment(stateDirectory: directory)))
            let result = ManifestLoader(runner: testRunner).load(directories: [directory, other], into: &registry) {
                $0.lastPathComponent
            }
            #expect(
                result.diagnostics.map(\.description) == [
                    "again.yaml:1:5: error: skill 'demo.fine' is already declared at fine.yaml:1:5; skill ids must be unique",
                    "echo.yaml:1:5: error: skill 'debug.echo' has the id of a built-in skill; skill ids must be unique",
                ])
            #expect(registry["demo.fine"] is ManifestSkill)
            #expect(!(registry["debug.echo"] is ManifestSkill))
        }
    }
}
