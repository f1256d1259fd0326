import Foundation
import SkillbookCore

/// What every harness shares: the input as text, and a registry of skills for the checker.
enum FuzzInput {
    /// The bytes as UTF-8 text (invalid sequences become U+FFFD, as a file read would refuse them
    /// before the parser; the parsers see text only).
    static func text(_ data: UnsafePointer<UInt8>, _ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    }

    /// Lines as libyaml counts them: CR LF, LF, CR, NEL, LS and PS each end one (a Swift
    /// `Character` would hold CR LF as one, so scalars are counted). At the end of a text without a
    /// final break libyaml reports the line after the last, which the oracles allow.
    static func lineCount(_ text: String) -> Int {
        var lines = 1
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            if ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar), !(scalar == "\n" && previous == "\r") { lines += 1 }
            previous = scalar
        }
        return lines
    }

    /// A skill with a schema, for the playbook checker (never run).
    struct SchemaSkill: Skill {
        let descriptor: SkillDescriptor
        func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value { .null }
    }

    /// `notes.create`, `notes.list`, `text.upper` and `files.list`-like skills with the schema
    /// shapes the shipped playbooks use (strings with formats, integers with bounds, lists with
    /// maxItems, nested objects).
    static let registry: SkillRegistry = {
        func schema(_ json: String) -> Schema {
            var diagnostics: [Diagnostic] = []
            let value = try! JSONText.decode(json)
            return SchemaDecoder().decode(value, diagnostics: &diagnostics)!
        }
        let skills: [any Skill] = [
            SchemaSkill(
                descriptor: SkillDescriptor(
                    id: "notes.create", summary: "Creates a note.", kind: .action,
                    parameters: schema(#"{"type":"object","properties":{"title":{"type":"string","minLength":1},"body":{"type":"string"},"due":{"type":"string","format":"date"}},"required":["title"]}"#),
                    output: schema(#"{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"}}}"#),
                    resources: ["notes"])),
            SchemaSkill(
                descriptor: SkillDescriptor(
                    id: "notes.list", summary: "Lists notes.", kind: .query,
                    parameters: schema(#"{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100}}}"#),
                    output: schema(#"{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}}}}"#))),
            SchemaSkill(
                descriptor: SkillDescriptor(
                    id: "notes.delete", summary: "Deletes notes.", kind: .action, confirm: true,
                    parameters: schema(#"{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"},"maxItems":3}},"required":["ids"]}"#),
                    output: schema(#"{"type":"object","properties":{"deleted":{"type":"integer"}}}"#))),
            SchemaSkill(
                descriptor: SkillDescriptor(
                    id: "text.upper", summary: "Upper-cases text.", kind: .query,
                    parameters: schema(#"{"type":"object","properties":{"text":{"type":"string"},"when":{"type":"string","format":"date-time"}},"required":["text"]}"#),
                    output: schema(#"{"type":"string"}"#))),
        ]
        return try! SkillRegistry(skills)
    }()
}
