import Foundation
import SkillbookCore
import Testing

/// A skill that only has a descriptor: the playbook tests load and check, they never run.
struct StubSkill: Skill {
    let descriptor: SkillDescriptor

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        throw SkillError("stub skill '\(descriptor.id)' does not run")
    }
}

/// Small stand-ins for the built-in skills (Core tests cannot import SkillbookSkills), with the
/// same schemas where the tests depend on them, plus two shapes the built-ins do not have.
enum PlaybookFixture {
    static let skills: [any Skill] = [
        StubSkill(
            descriptor: SkillDescriptor(
                id: "debug.echo", summary: "Returns the value it is given.", kind: .query,
                parameters: .object(["value": .anyValue("Any value.")], required: ["value"]),
                output: .object(["value": .anyValue("The same value.")], required: ["value"]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "debug.fail", summary: "Always fails.", kind: .query,
                parameters: .object(["message": .string()], required: ["message"]), output: .object([:]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "debug.sleep", summary: "Waits.", kind: .query,
                parameters: .object(["seconds": .number(minimum: 0, maximum: 3600)]),
                output: .object(["slept": .number()], required: ["slept"]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "text.template", summary: "Fills placeholders.", kind: .query,
                parameters: .object(
                    ["template": .string("Text with {{name}} placeholders."), "values": Schema(type: .object, defaultValue: [:])],
                    required: ["template"]),
                output: .object(["text": .string()], required: ["text"]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "notes.create", summary: "Saves a note.", kind: .action,
                parameters: .object(
                    [
                        "title": .string(minLength: 1, maxLength: 200), "body": .string(default: ""),
                        "tags": Schema(type: .array, defaultValue: [], items: .string(minLength: 1)),
                    ], required: ["title"]),
                output: .object(["id": .string(), "title": .string()], required: ["id", "title"]),
                reversible: true)),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "notes.list", summary: "Lists notes.", kind: .query,
                parameters: .object(["tag": .string(minLength: 1), "limit": .integer(minimum: 1, maximum: 1000, default: 100)]),
                output: .object(
                    [
                        "items": .array(
                            .object(
                                ["id": .string(), "title": .string(), "body": .string(), "tags": .array(.string())],
                                required: ["id", "title", "body", "tags"])),
                        "count": .integer(minimum: 0),
                    ], required: ["items", "count"]))),
        // The shipped sweep-scratch-notes playbook deletes what notes.list found.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "notes.delete", summary: "Deletes notes.", kind: .action, confirm: true,
                parameters: .object(["ids": .array(.string(minLength: 1), minItems: 1, maxItems: 100)], required: ["ids"]),
                output: .object(
                    ["deleted": .integer(minimum: 0), "notes": .array(.object(["id": .string(), "title": .string()]))],
                    required: ["deleted", "notes"]),
                reversible: true)),
        // The file skills the shipped tidy-downloads playbook uses, with their shapes.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "files.list", summary: "Lists files.", kind: .query,
                parameters: .object(["root": .string(), "glob": .string(), "limit": .integer(minimum: 1, maximum: 10000)]),
                output: .object(
                    [
                        "items": .array(.object(["path": .string(), "size": .integer(), "modified": .string()])),
                        "count": .integer(minimum: 0), "truncated": .boolean(),
                    ], required: ["items", "count"]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "files.move", summary: "Moves files.", kind: .action,
                parameters: .object(["paths": .array(.string(), minItems: 1, maxItems: 100), "into": .string()]),
                output: .object(["moved": .array(.object(["from": .string(), "to": .string()])), "created": .array(.string())]),
                resources: ["files"], reversible: true)),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "files.mkdir", summary: "Makes a folder.", kind: .action,
                parameters: .object(["path": .string(), "parents": .boolean()], required: ["path"]),
                output: .object(["path": .string(), "created": .array(.string())]), resources: ["files"], reversible: true)),
        // The manifest skills of Skills/ that project-backup uses: { stdout, stderr, exit_code }.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "archive.create", summary: "Packs files.", kind: .action,
                parameters: .object(["archive": .string(), "paths": .array(.string(), minItems: 1), "directory": .string()], required: ["archive", "paths"]),
                output: .object(["stdout": .string(), "stderr": .string(), "exit_code": .integer()]), reversible: true)),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "files.checksum", summary: "Checksums files.", kind: .query,
                parameters: .object(["paths": .array(.string(), minItems: 1, maxItems: 1000)], required: ["paths"]),
                output: .object(["stdout": .string(), "stderr": .string(), "exit_code": .integer()]))),
        // What morning-briefing uses.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "reminders.list", summary: "Lists reminders.", kind: .query,
                parameters: .object(
                    ["due_on": .string(format: "date"), "due_before": .string(format: "date-time"), "order": .string(enum: ["newest", "oldest"])]),
                output: .object(["items": .array(.freeObject()), "count": .integer(), "text": .string()]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "web.summary", summary: "Summarises a page.", kind: .query,
                parameters: .object(["url": .string(format: "uri")], required: ["url"]),
                output: .object(["url": .string(), "title": .string(), "description": .string()]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "text.join", summary: "Joins items.", kind: .query,
                parameters: .object(["items": .array(.any), "separator": .string(), "prefix": .string()], required: ["items"]),
                output: .object(["text": .string()]))),
        // A list of objects, for problems deep inside a literal.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "notes.import", summary: "Imports notes.", kind: .action,
                parameters: .object(
                    [
                        "notes": .array(
                            .object(
                                ["title": .string(minLength: 1, maxLength: 10), "tags": .array(.string(minLength: 1))],
                                required: ["title"]))
                    ], required: ["notes"]),
                output: .object(["count": .integer()], required: ["count"]))),
        // The notification skills the shipped examples' `notify:` calls.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "web.request", summary: "Sends a request.", kind: .action, confirm: true,
                parameters: .object(["url": .string(format: "uri"), "body": .any], required: ["url"]),
                output: .object(["status": .integer()], required: ["status"]))),
        StubSkill(
            descriptor: SkillDescriptor(
                id: "notify.send", summary: "Notifies the user.", kind: .action,
                parameters: .object(["message": .string(minLength: 1), "title": .string()], required: ["message"]),
                output: .object(["channels": .array(.string())], required: ["channels"]))),
        // Parameters that go together, like files.copy's: paths with into, or pairs.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "files.copy", summary: "Copies files.", kind: .action,
                parameters: Schema.object(
                    ["paths": .array(.string()), "into": .string(), "copies": .array(.freeObject())]
                ).with {
                    $0.dependentRequired = [("paths", ["into"]), ("into", ["paths"])]
                    $0.oneOf = [.requiring(["paths"]), .requiring(["copies"])]
                },
                output: .object(["copied": .array(.freeObject())], required: ["copied"]))),
        // A skill that exists but cannot run here: using it is a warning, not an error.
        StubSkill(
            descriptor: SkillDescriptor(
                id: "mail.send", summary: "Sends mail.", kind: .action, confirm: true,
                parameters: .object(["to": .string(format: "email")], required: ["to"]),
                output: .object(["id": .string()], required: ["id"]),
                availability: .unavailable(reason: "no mail account configured"))),
    ]

    static let registry: SkillRegistry = {
        do {
            return try SkillRegistry(skills)
        } catch {
            fatalError("the fixture skills must register: \(error)")
        }
    }()

    static func load(_ yaml: String, file: String = "test.yaml") -> PlaybookLoader.Result {
        PlaybookLoader(registry: registry).load(yaml, file: file)
    }

    /// The diagnostics of a playbook as `LINE:COLUMN: severity: message`, in order.
    static func diagnostics(_ yaml: String, file: String = "test.yaml") -> [String] {
        load(yaml, file: file).diagnostics.map { diagnostic in
            let position = diagnostic.location.map { "\($0.line):\($0.column): " } ?? ""
            return "\(position)\(diagnostic.severity.rawValue): \(diagnostic.message)"
        }
    }

    /// Like `diagnostics`, with each hint as `note: …` after its diagnostic.
    static func diagnosticsWithHints(_ yaml: String, file: String = "test.yaml") -> [String] {
        load(yaml, file: file).diagnostics.flatMap { diagnostic in
            let position = diagnostic.location.map { "\($0.line):\($0.column): " } ?? ""
            return ["\(position)\(diagnostic.severity.rawValue): \(diagnostic.message)"] + (diagnostic.hint.map { ["note: \($0)"] } ?? [])
        }
    }

    /// The root of the package, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Playbook
        .deletingLastPathComponent()  // SkillbookCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The example playbooks shipped in `Playbooks/`, by file name.
    static func shippedPlaybooks() throws -> [(name: String, text: String)] {
        let folder = packageRoot.appendingPathComponent("Playbooks")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        return try names.map { name in
            (name, try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
        }
    }
}
