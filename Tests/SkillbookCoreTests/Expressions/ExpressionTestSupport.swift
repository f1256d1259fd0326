import Foundation
import SkillbookCore
import Testing

/// Shared fixtures for expression tests.
enum Fixture {
    static let notesOutput = Schema.object([
        "items": .array(.object(["id": .string(), "title": .string(), "done": .boolean()])),
        "count": .integer(),
    ])
    static let echoOutput = Schema.object(["value": .anyValue("whatever was given")])

    static let inputs = [
        ObjectField(name: "day", type: .string),
        ObjectField(name: "count", type: .integer),
        ObjectField(name: "feeds", type: .array(.string)),
        ObjectField(name: "ratio", type: .number),
    ]

    static let scope = ExpressionScope(
        inputs: inputs,
        steps: [
            "echo": .init(skill: "debug.echo", output: ExprType(schema: echoOutput), visibility: .earlier),
            "notes": .init(skill: "notes.list", output: ExprType(schema: notesOutput), visibility: .earlier),
            "self": .init(skill: "notes.create", output: .object(fields: nil), visibility: .current),
            "later": .init(skill: "notes.create", output: .object(fields: nil), visibility: .later),
        ],
        env: ["API_TOKEN", "HOME"]
    )

    /// 2026-11-30T23:30:00Z, which is 2026-12-01 00:30 in Berlin.
    static let now = Date(timeIntervalSince1970: 1_796_081_400)
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? TimeZone(secondsFromGMT: 3600) ?? .current
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    static let context = EvaluationContext(
        inputs: object([
            ("day", "2026-03-01"), ("count", 3), ("feeds", ["a.example", "b.example"]), ("ratio", 0.5),
            ("flag", false), ("empty", ""), ("my key", "spaced"),
        ]),
        steps: [
            "echo": ["value": ["x", "y"]],
            "notes": [
                "items": [
                    ["id": "n1", "title": "Milk", "done": false],
                    ["id": "n2", "title": "Eggs", "done": true],
                ],
                "count": 2,
            ],
        ],
        env: ["HOME": "/home/anna"],
        run: object([("id", "run-1"), ("playbook", "morning"), ("started", "2026-11-30T23:30:00Z")]),
        now: now,
        timeZone: berlin
    )
}

/// The value of a template in the fixture context (or `context`).
func evaluate(_ text: String, in context: EvaluationContext = Fixture.context) throws(ExpressionError) -> Value {
    try TemplateString.parse(text).evaluate(in: context)
}

/// The value of one bare expression, written without `${{ }}`.
func value(_ expression: String, in context: EvaluationContext = Fixture.context) throws(ExpressionError) -> Value {
    try evaluate("${{ \(expression) }}", in: context)
}

/// The runtime error of a template.
func evaluationError(_ text: String, in context: EvaluationContext = Fixture.context) -> ExpressionError? {
    do {
        _ = try evaluate(text, in: context)
        return nil
    } catch {
        return error
    }
}

/// The syntax error of a template.
func syntaxError(_ text: String) -> ExpressionError? {
    do {
        _ = try TemplateString.parse(text)
        return nil
    } catch {
        return error
    }
}

/// The static type and errors of a template in the fixture scope (or `scope`).
func check(_ text: String, in scope: ExpressionScope = Fixture.scope) throws(ExpressionError) -> (type: ExprType, errors: [ExpressionError])
{
    try TemplateString.parse(text).type(in: scope)
}

/// The character offset of the first occurrence of `part` in `text` (for asserting error offsets).
func offset(of part: String, in text: String) -> Int {
    guard let range = text.range(of: part) else { return -1 }
    return text.distance(from: text.startIndex, to: range.lowerBound)
}

/// An ordered object from pairs.
func object(_ pairs: [(String, Value)]) -> ValueObject {
    ValueObject(pairs)
}
