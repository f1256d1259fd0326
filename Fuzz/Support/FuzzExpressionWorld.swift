import Foundation
import SkillbookCore

/// The names a fuzzed expression can use, typed and valued alike.
enum FuzzExpressionWorld {
    static let scope = ExpressionScope(
        inputs: [
            ObjectField(name: "name", type: .string), ObjectField(name: "count", type: .integer),
            ObjectField(name: "ratio", type: .number), ObjectField(name: "tags", type: .array(.string)),
            ObjectField(name: "token", type: .string), ObjectField(name: "maybe", type: .union([.integer, .null])),
        ],
        steps: [
            "list": .init(
                skill: "notes.list",
                output: .array(.object(fields: [ObjectField(name: "id", type: .string), ObjectField(name: "title", type: .string)])),
                visibility: .earlier),
            "flag": .init(skill: "debug.echo", output: .boolean, visibility: .earlier),
        ],
        env: ["HOME"])

    static let context: EvaluationContext = {
        var inputs = ValueObject()
        inputs["name"] = "Ada"
        inputs["count"] = .int(3)
        inputs["ratio"] = .double(0.5)
        inputs["tags"] = .array([.string("a"), .string("b,c"), .string("")])
        inputs["token"] = "s3cr3t-FUZZ"
        inputs["maybe"] = .null
        var first = ValueObject()
        first["id"] = "n1"
        first["title"] = "First"
        var second = ValueObject()
        second["id"] = "n2"
        second["title"] = "Zweite Notiz é"
        var context = EvaluationContext(
            inputs: inputs, steps: ["list": .array([.object(first), .object(second)]), "flag": .bool(true)], env: ["HOME": "/home/ada"],
            now: Date(timeIntervalSince1970: 1_774_749_600), timeZone: TimeZone(identifier: "Europe/Berlin")!)
        context.stepLimit = 100_000
        return context
    }()
}
