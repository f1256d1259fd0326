import Foundation
import Testing

@testable import SkillbookCore

/// The official JSON-Schema-Test-Suite (draft 2020-12) run through `SchemaDecoder` and
/// `SchemaValidator`: every test of every file below passes, except those listed in `deviations`
/// with the reason. A group whose schema does not load is counted as unsupported; the files in
/// `complete` must have none. Where the suite's files are is said in Fixtures/JSON-Schema-Test-Suite/README.md.
@Suite struct JSONSchemaSuiteTests {
    /// The draft2020-12 files of the keywords Skillbook supports, and `optional/format` of its formats.
    /// Left out: `refRemote.json`, `defs.json`, `dynamicRef.json`, `anchor.json`, `vocabulary.json`
    /// (remote references and the meta-schema are out of scope) and keywords not supported.
    static let files = [
        "type", "const", "enum", "anyOf", "oneOf", "allOf", "not", "ref", "prefixItems", "patternProperties",
        "additionalProperties", "propertyNames", "dependentRequired", "boolean_schema", "minLength", "maxLength",
        "minimum", "maximum", "pattern", "items", "minItems", "maxItems", "properties", "required", "default",
        "infinite-loop-detection", "optional/format/date", "optional/format/date-time", "optional/format/time",
        "optional/format/duration", "optional/format/uri", "optional/format/email",
    ]

    /// Files where a group may use a keyword Skillbook does not support; the others must load whole.
    static let partial: [String: String] = [
        "ref": "uses $id, $anchor, remote and recursive references, if/then/else and unevaluatedProperties",
        "allOf": "one group uses multipleOf",
        "not": "one group uses unevaluatedProperties",
        "additionalProperties": "one group uses dependentSchemas",
    ]

    /// Tests Skillbook deliberately answers differently, by `file: group / test`, with the reason.
    static let deviations: [String: String] = [:]

    /// The suite's root: `SKILLBOOK_JSON_SCHEMA_SUITE`, `shared/JSON-Schema-Test-Suite` beside the
    /// checkout (where CI finds shared files), or the Fixtures folder of this target.
    static let root: URL? = {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let package = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var candidates = [
            package.deletingLastPathComponent().appendingPathComponent("shared/JSON-Schema-Test-Suite"),
            here.deletingLastPathComponent().appendingPathComponent("Fixtures/JSON-Schema-Test-Suite"),
        ]
        if let given = ProcessInfo.processInfo.environment["SKILLBOOK_JSON_SCHEMA_SUITE"] {
            candidates.insert(URL(fileURLWithPath: given), at: 0)
        }
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("tests/draft2020-12/type.json").path)
        }
    }()

    struct Counts: CustomStringConvertible {
        var pass = 0, deviation = 0, unsupported = 0
        var failures: [String] = []
        var description: String { "\(pass) pass, \(deviation) deliberate deviation, \(unsupported) unsupported" }
    }

    /// Runs one file; failures name the group, the test and what the validator said.
    static func run(_ file: String, root: URL) throws -> Counts {
        let url = root.appendingPathComponent("tests/draft2020-12/\(file).json")
        let text = try String(contentsOf: url, encoding: .utf8)
        var counts = Counts()
        for group in try JSONText.decode(text).arrayValue ?? [] {
            let groupName = group["description"]?.stringValue ?? "?"
            let tests = group["tests"]?.arrayValue ?? []
            var diagnostics: [Diagnostic] = []
            guard let schema = SchemaDecoder().decode(group["schema"] ?? .null, file: "\(file).json", diagnostics: &diagnostics) else {
                counts.unsupported += tests.count
                if partial[file] == nil {
                    counts.failures.append("\(groupName): schema refused: \(diagnostics.map(\.message).joined(separator: "; "))")
                }
                continue
            }
            for test in tests {
                let name = "\(file): \(groupName) / \(test["description"]?.stringValue ?? "?")"
                let expected = test["valid"] == .bool(true)
                let violations = SchemaValidator.validate(test["data"] ?? .null, against: schema)
                if deviations[name] != nil {
                    counts.deviation += 1
                    if violations.isEmpty == expected { counts.failures.append("\(name): listed as a deviation but passes") }
                } else if violations.isEmpty == expected {
                    counts.pass += 1
                } else {
                    let said = violations.isEmpty ? "accepted" : violations.map(\.description).joined(separator: "; ")
                    counts.failures.append("\(name): expected \(expected ? "valid" : "invalid"), \(said)")
                }
            }
        }
        return counts
    }

    @Test(.enabled(if: root != nil, "the JSON-Schema-Test-Suite files are not in place (see Fixtures/JSON-Schema-Test-Suite/README.md)"))
    func everySupportedFilePasses() throws {
        let root = try #require(Self.root)
        var total = Counts()
        for file in Self.files {
            let counts = try Self.run(file, root: root)
            print("JSON-Schema-Test-Suite \(file).json: \(counts)")
            for failure in counts.failures { Issue.record("\(failure)") }
            if Self.partial[file] == nil { #expect(counts.unsupported == 0, "\(file).json") }
            total.pass += counts.pass
            total.deviation += counts.deviation
            total.unsupported += counts.unsupported
        }
        print("JSON-Schema-Test-Suite total: \(total)")
    }
}
