import Foundation
public import SkillbookCore

/// Reads a model's answer defensively: structured content, tool calls, or JSON somewhere in the
/// text — in a code fence, with prose around it, with trailing commas — and `"true"`/`"42"`
/// strings (left for the shared coercion, which the plan goes through before checking).
public enum PlanParser {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) {
            self.message = message
        }
    }

    public static func parse(_ response: ChatResponse) throws(Failure) -> ModelAnswer {
        if !response.toolCalls.isEmpty { return try fromToolCalls(response.toolCalls) }
        guard let content = response.content, !content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw Failure(message: "the model's answer is empty")
        }
        guard let value = extractJSON(content) else {
            throw Failure(message: "the model's answer holds no JSON object: \(snippet(content))")
        }
        return try answer(value)
    }

    /// One call named `plan` (or `submit_plan`) carries a whole plan; otherwise each call is a step
    /// that names its skill.
    static func fromToolCalls(_ calls: [ChatResponse.ToolCall]) throws(Failure) -> ModelAnswer {
        if calls.count == 1, ["plan", "submit_plan", "make_plan"].contains(calls[0].name) {
            guard let value = extractJSON(calls[0].arguments) else {
                throw Failure(message: "the arguments of tool call '\(calls[0].name)' are not JSON: \(snippet(calls[0].arguments))")
            }
            return try answer(value)
        }
        var steps: [Plan.Step] = []
        for (i, call) in calls.enumerated() {
            let arguments = call.arguments.trimmingCharacters(in: .whitespaces).isEmpty ? .object([:]) : extractJSON(call.arguments)
            guard let with = arguments?.objectValue else {
                throw Failure(message: "the arguments of tool call \(i + 1) ('\(call.name)') are not a JSON object")
            }
            steps.append(Plan.Step(id: "s\(i + 1)", target: call.name, with: with))
        }
        return .plan(Plan(steps: steps))
    }

    static func answer(_ value: Value) throws(Failure) -> ModelAnswer {
        if let list = value.arrayValue {
            // An empty list plans nothing: said as such, not written as a playbook without steps.
            guard !list.isEmpty else { throw Failure(message: "the model's answer is an empty list of steps") }
            return .plan(Plan(steps: try steps(list)))
        }
        guard let object = value.objectValue else { throw Failure(message: "the model's answer is not a JSON object") }
        if let list = object["steps"]?.arrayValue, !list.isEmpty { return .plan(Plan(steps: try steps(list))) }
        if let question = object["question"]?.stringValue, !question.isEmpty { return .question(question) }
        if object["skill"] != nil || object["playbook"] != nil { return .plan(Plan(steps: try steps([value]))) }
        throw Failure(message: "the model's answer has neither 'steps' nor 'question'")
    }

    static func steps(_ list: [Value]) throws(Failure) -> [Plan.Step] {
        var steps: [Plan.Step] = []
        for (i, item) in list.enumerated() {
            guard let object = item.objectValue else { throw Failure(message: "step \(i + 1) of the plan is not an object") }
            let playbook = object["playbook"]?.stringValue
            guard let target = object["skill"]?.stringValue ?? playbook, !target.isEmpty else {
                throw Failure(message: "step \(i + 1) of the plan names no skill")
            }
            let with: ValueObject
            switch object["with"] ?? object["parameters"] ?? object["arguments"] {
            case nil, .null?: with = [:]
            case .object(let given)?: with = given
            case .string(let text)?:
                guard let given = extractJSON(text)?.objectValue else {
                    throw Failure(message: "step \(i + 1) of the plan: 'with' must be an object")
                }
                with = given
            default: throw Failure(message: "step \(i + 1) of the plan: 'with' must be an object")
            }
            var id = object["id"]?.stringValue ?? "s\(i + 1)"
            if !PlaybookDecoder.isValidIdentifier(id) { id = "s\(i + 1)" }
            steps.append(Plan.Step(id: id, target: target, isPlaybook: playbook != nil && object["skill"] == nil, with: with))
        }
        return steps
    }

    /// The first JSON object or array in `text`: the content of a code fence if there is one, else
    /// the first balanced `{…}`/`[…]`; trailing commas before `}` or `]` are dropped.
    public static func extractJSON(_ text: String) -> Value? {
        var candidates: [String] = []
        if let fenced = fenced(text) { candidates.append(fenced) }
        candidates.append(text)
        for candidate in candidates {
            let trimmed = candidate.trimmingCharacters(in: .whitespacesAndNewlines)
            if let value = try? JSONText.decode(trimmed) { return value }
            if let value = try? JSONText.decode(withoutTrailingCommas(trimmed)) { return value }
            for piece in balancedPieces(candidate) {
                if let value = try? JSONText.decode(withoutTrailingCommas(piece)) { return value }
            }
        }
        return nil
    }

    static func fenced(_ text: String) -> String? {
        guard let open = text.range(of: "```") else { return nil }
        var body = text[open.upperBound...]
        if let newline = body.firstIndex(of: "\n") { body = body[body.index(after: newline)...] }
        guard let close = body.range(of: "```") else { return String(body) }
        return String(body[..<close.lowerBound])
    }

    /// Every balanced `{…}` or `[…]` that starts outside a string, outermost first.
    static func balancedPieces(_ text: String) -> [String] {
        let chars = Array(text)
        var pieces: [String] = []
        var start = 0
        while start < chars.count {
            guard let open = chars[start...].firstIndex(where: { $0 == "{" || $0 == "[" }) else { break }
            var depth = 0
            var inString = false
            var escaped = false
            var end: Int?
            for i in open..<chars.count {
                let c = chars[i]
                if inString {
                    if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                    continue
                }
                switch c {
                case "\"": inString = true
                case "{", "[": depth += 1
                case "}", "]":
                    depth -= 1
                    if depth == 0 { end = i }
                default: break
                }
                if end != nil { break }
            }
            guard let end else { break }
            pieces.append(String(chars[open...end]))
            start = end + 1
        }
        return pieces
    }

    /// `[1, 2,]` → `[1, 2]`, `{"a": 1,}` → `{"a": 1}`, outside strings.
    static func withoutTrailingCommas(_ text: String) -> String {
        let chars = Array(text)
        var out: [Character] = []
        var inString = false
        var escaped = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                out.append(c)
            } else if c == "\"" {
                inString = true
                out.append(c)
            } else if c == "," {
                var j = i + 1
                while j < chars.count, chars[j].isWhitespace { j += 1 }
                if j < chars.count, chars[j] == "}" || chars[j] == "]" {
                    i += 1
                    continue
                }
                out.append(c)
            } else {
                out.append(c)
            }
            i += 1
        }
        return String(out)
    }

    static func snippet(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 80 ? "'\(flat.prefix(80))…'" : "'\(flat)'"
    }
}
