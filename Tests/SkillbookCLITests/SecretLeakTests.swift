import Foundation
import SkillbookCore
import SkillbookPostgres
import SkillbookSQL
import SkillbookTesting
import Testing

/// Issue 25: a known secret pushed through every expression function and operator, a template, a
/// skill's output (with its encoded forms), a batch split, a foreach item, a sub-playbook's input,
/// a retry's error message, a rollback step and a resume, then looked for — with its case, base64
/// and URL-encoded forms, what the playbook derives from it, and each line of a multi-line one —
/// in everything the run recorded or showed: the state's files byte by byte (SQLite) or a dump of
/// every table and the database's files and WAL after a checkpoint (PostgreSQL), `runs show` (text
/// and `--json`), the `--json` events, stdout and stderr, the results and progress of the same
/// playbooks called as MCP tools (`skillbook mcp`), and every payload of a `skillbook serve` on the
/// same state (its API and event stream, a run it starts). A secret of `secrets:` (an environment
/// provider) goes the same ways; typed into a request, it is not sent to the model.
@Suite struct SecretLeakTests {
    static let token = "S3cr-Et7x q9Wz"
    /// The value of the provider secret `api` (`secrets: { api: { env: LEAK_API } }`).
    static let provided = "Pr0v-Ided kEy5"
    static let environment = ["LEAK_API": provided]
    static let key = "-----BEGIN TEST KEY-----\nMIIBoQdFirstLineOfKey\nZ2Vjb25kTGluZU9mS2V5\n-----END TEST KEY-----"
    static let born = "1987-03-14"

    /// A step per way of deriving a value; `fail` makes the last step fail after a retry.
    static func playbook(name: String, onFailure: String) -> String {
        """
        name: \(name)
        on_failure: \(onFailure)
        inputs:
          token: { type: string, secret: true }
          key: { type: string, secret: true }
          born: { type: string, secret: true }
          flag: { type: boolean, default: true }
          fail: { type: boolean, default: false }
        steps:
          - { id: up, skill: debug.echo, with: { value: "${{ upper(inputs.token) }}" } }
          - { id: low, skill: debug.echo, with: { value: "${{ lower(inputs.token) }}" } }
          - { id: trimmed, skill: debug.echo, with: { value: "${{ trim('  ' + inputs.token + '  ') }}" } }
          - { id: replaced, skill: debug.echo, with: { value: "${{ replace(inputs.token, '-', '_') }}" } }
          - { id: parts, skill: debug.echo, with: { value: "${{ split(inputs.token, '-') }}" } }
          - { id: joined, skill: debug.echo, with: { value: "${{ join(split(inputs.token, '-'), '+') }}" } }
          - { id: sliced, skill: debug.echo, with: { value: "${{ inputs.token[1:-1] }}" } }
          - { id: json, skill: debug.echo, with: { value: "${{ to_json([lower(inputs.token), 'x']) }}" } }
          - { id: parsed, skill: debug.echo, with: { value: "${{ from_json(to_json([replace(inputs.token, ' ', '%')])) }}" } }
          - { id: plus, skill: debug.echo, with: { value: "${{ 'k=' + inputs.token }}" } }
          - { id: dated, skill: debug.echo, with: { value: "${{ format_date(inputs.born, 'dd.MM.yyyy') }}" } }
          - { id: chosen, skill: debug.echo, with: { value: "${{ inputs.flag ? replace(inputs.token, 'q', 'Q') : 'none' }}" } }
          - { id: multiline, skill: debug.echo, with: { value: "${{ upper(inputs.key) }}" } }
          - { id: whole, skill: debug.echo, with: { value: { nested: ["${{ inputs.key }}", "${{ inputs.born }}"] } } }
          - { id: provided, skill: debug.echo, with: { value: "${{ replace(secret('api'), '-', '=') + '|' + lower(secret('api')) }}" } }
          - id: templated
            skill: text.template
            with: { template: "Bearer {{t}}", values: { t: "${{ lower(inputs.token) }}" } }
          - { id: interpolated, skill: debug.echo, with: { value: "x ${{ replace(inputs.token, ' ', '~') }} y" } }
          - id: encoded
            skill: leak.encode
            with: { words: ["${{ inputs.token }}", "${{ upper(inputs.token) }}", plain] }
          - id: each
            skill: debug.echo
            foreach: "${{ split(inputs.token, ' ') }}"
            with: { value: "${{ lower(item) + '/' + upper(item) }}" }
          - { id: child, playbook: leak-child, with: { given: "${{ replace(inputs.token, 'E', '3') }}" } }
          - id: saved
            skill: notes.create
            with: { title: n1 }
            rollback:
              - { id: unsave, skill: debug.fail, with: { message: "${{ 'undo ' + this.input.title + ' ' + replace(inputs.token, 'S', '5') }}" } }
          - id: flaky
            skill: debug.fail
            when: "${{ inputs.fail }}"
            retry: { attempts: 2, delay: 1 }
            with: { message: "${{ 'refused ' + replace(inputs.token, ' ', '#') }}" }
        outputs:
          up: "${{ steps.up.output.value }}"
          parts: "${{ steps.parts.output.value }}"
          child: "${{ steps.child.output.seen }}"
          dated: "${{ steps.dated.output.value }}"
          each: "${{ steps.each.output }}"
          encoded: "${{ steps.encoded.output.batches }}"

        """
    }

    static let child = """
        name: leak-child
        inputs:
          given: { type: string }
        steps:
          - { id: echo, skill: debug.echo, with: { value: "${{ lower(inputs.given) }}" } }
        outputs:
          seen: "${{ steps.echo.output.value }}"

        """

    /// Prints each word with its base64 and URL-encoded forms; two words per call, so a list of
    /// three is split into two batches.
    static let encodeSkill = """
        id: leak.encode
        title: Encode words
        summary: Prints each word, its base64 and its URL-encoded form, one word a line.
        kind: query
        parameters:
          type: object
          properties:
            words: { type: array, items: { type: string }, minItems: 1, maxItems: 2, description: The words. }
          required: [words]
        run:
          - python3
          - -c
          - "import sys, base64, urllib.parse\\nfor w in sys.argv[1:]: print(w, base64.b64encode(w.encode()).decode(), urllib.parse.quote(w, safe=''))"
          - "${{ params.words }}"
        idempotent: true

        """

    /// What must appear nowhere: each secret, its forms and lines, and what the playbook derives.
    static let needles: [String] = {
        var needles: [String] = []
        for secret in [token, key, born, provided] {
            needles += [secret, secret.uppercased(), secret.lowercased(), Data(secret.utf8).base64EncodedString()]
            needles.append(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            needles += secret.split(separator: "\n").map(String.init).filter { $0.count >= 4 }
        }
        needles += [
            "S3cr_Et7x q9Wz", "Et7x q9Wz", "S3cr+Et7x q9Wz", "3cr-Et7x q9W", "S3cr-Et7x%q9Wz", "14.03.1987",
            "S3cr-Et7x Q9Wz", "S3cr-Et7x~q9Wz", "s3cr-et7x/S3CR-ET7X", "q9wz/Q9WZ", "s3cr-3t7x q9wz", "5 3cr-Et7x q9Wz",
            "53cr-Et7x q9Wz", "S3cr-Et7x#q9Wz", Data(token.uppercased().utf8).base64EncodedString(), "Pr0v=Ided kEy5",
        ]
        return needles
    }()

    static func leaks(in text: String, _ place: String) -> [String] {
        needles.filter { text.contains($0) }.map { "\(place): '\($0)'" }
    }

    func workspace() -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/leak.yaml", Self.playbook(name: "leak", onFailure: "stop"))
        directory.write("Playbooks/leak-undo.yaml", Self.playbook(name: "leak-undo", onFailure: "rollback"))
        directory.write("Playbooks/leak-child.yaml", Self.child)
        directory.write("Skills/leak.encode.yaml", Self.encodeSkill)
        directory.write("skillbook.yaml", "secrets:\n  api: { env: LEAK_API }\n")
        return directory
    }

    var secretInputs: [String] { ["-i", "token=\(Self.token)", "-i", "key=\(Self.key)", "-i", "born=\(Self.born)"] }

    @Test(arguments: Backend.allCases)
    func aSecretDerivedInEveryWayIsFoundNowhere(on backend: Backend) async throws {
        let directory = workspace()
        let stateString: String
        switch backend {
        case .sqlite: stateString = directory.state.path
        case .postgres: stateString = try await PostgresCluster.freshDatabase()
        }
        let state = ["--state", stateString, "--playbooks", directory.playbooks.path]
        var found: [String] = []
        func run(_ arguments: [String]) async throws -> (code: Int32, out: String, err: String) {
            let result = try await runSkillbook(arguments + state, in: directory.url, environment: Self.environment)
            found += Self.leaks(in: result.out, "stdout of \(arguments[0])") + Self.leaks(in: result.err, "stderr of \(arguments[0])")
            return result
        }

        // A run that fails after a retry and rolls back through a rollback step, which fails
        // with the secret in its message (so the run's rollback is incomplete).
        let undone = try await run(["run", "leak-undo", "--json", "-i", "fail=true"] + secretInputs)
        #expect(undone.code == 3, "\(undone.err)")
        #expect(undone.out.contains("\"type\":\"step.retrying\""), "\(undone.out)")
        #expect(undone.out.contains("refused ***"), "the retried error, masked: \(undone.out)")
        #expect(undone.out.contains("undo n1 ***"), "the rollback step ran with the secret masked: \(undone.out)")

        // A run that stops, then a resume that finishes it.
        let stopped = try await run(["run", "leak", "--json", "-i", "fail=true"] + secretInputs)
        #expect(stopped.code == 1, "\(stopped.err)")
        let runID = try #require(Self.firstRun(in: stopped.out), "\(stopped.out)")
        let undoneID = try #require(Self.firstRun(in: undone.out), "\(undone.out)")
        directory.write(
            "Playbooks/leak.yaml",
            Self.playbook(name: "leak", onFailure: "stop").replacingOccurrences(of: "when: \"${{ inputs.fail }}\"", with: "when: false"))
        let resumed = try await run(["resume", runID, "--force", "--json"] + secretInputs)
        #expect(resumed.code == 0, "\(resumed.err)")

        // What the run shows afterwards, and what it says for each derivation.
        let shown = try await run(["runs", "show", runID, "--json"])
        #expect(shown.code == 0, "\(shown.err)")
        for masked in ["k=***", "Bearer ***", "\"***\""] {
            #expect(shown.out.contains(masked), "\(masked) in \(shown.out)")
        }
        _ = try await run(["runs", "show", runID])
        _ = try await run(["runs"])

        found += try await leaksThroughMCP(directory, state: state)
        found += try await leaksThroughTheConsole(directory, state: state, runs: [runID, undoneID])

        switch backend {
        case .sqlite:
            for file in try allFiles(under: directory.state) {
                let bytes = try Data(contentsOf: file)
                found += Self.leaks(in: String(decoding: bytes, as: UTF8.self), "the file \(file.lastPathComponent)")
            }
        case .postgres:
            let database = try PostgresDatabase(#require(PostgresURL(stateString)))
            let tables = try database.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
            #expect(tables.count >= 5)
            for table in tables.compactMap({ $0.values.first?.stringValue }) {
                for row in try database.query("SELECT row_to_json(t)::text FROM \"\(table)\" t") {
                    found += Self.leaks(in: row.values.compactMap { $0.stringValue }.joined(separator: "\n"), "the table \(table)")
                }
            }
            found += try leaksInTheClusterFiles(database)
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The run of the first `--json` event that names one.
    static func firstRun(in output: String) -> String? {
        output.split(separator: "\n").lazy.compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["run"] as? String
        }.first
    }

    func allFiles(under root: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true { files.append(url) }
        }
        #expect(!files.isEmpty)
        return files
    }
}
