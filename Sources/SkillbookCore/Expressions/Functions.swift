import Foundation

/// The kinds of value a function argument accepts.
struct ArgumentKinds: OptionSet, Sendable {
    let rawValue: Int

    static let null = ArgumentKinds(rawValue: 1 << 0)
    static let boolean = ArgumentKinds(rawValue: 1 << 1)
    static let integer = ArgumentKinds(rawValue: 1 << 2)
    static let number = ArgumentKinds(rawValue: 1 << 3)
    static let string = ArgumentKinds(rawValue: 1 << 4)
    static let array = ArgumentKinds(rawValue: 1 << 5)
    static let object = ArgumentKinds(rawValue: 1 << 6)
    static let anything: ArgumentKinds = [.null, .boolean, .integer, .number, .string, .array, .object]

    /// `string`, `string, array or object` (null is not mentioned).
    var phrase: String {
        let names: [(ArgumentKinds, String)] = [
            (.boolean, "boolean"), (.integer, "integer"), (.number, "number"), (.string, "string"),
            (.array, "array"), (.object, "object"),
        ]
        let listed = names.filter { contains($0.0) && !($0.0 == .integer && contains(.number)) }.map(\.1)
        guard listed.count > 1 else { return listed.first ?? "null" }
        return listed.dropLast().joined(separator: ", ") + " or " + (listed.last ?? "")
    }

    /// Whether a value of static type `type` may be passed (`.any` may always).
    func accepts(_ type: ExprType) -> Bool {
        switch type {
        case .any: true
        case .null: contains(.null)
        case .boolean: contains(.boolean)
        case .integer: contains(.integer) || contains(.number)
        case .number: contains(.number)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        case .union(let members): members.allSatisfy(accepts)
        }
    }

    /// Whether `value` may be passed (an integral number counts as an integer).
    func accepts(_ value: Value) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .int: contains(.integer) || contains(.number)
        case .double: contains(.number) || (contains(.integer) && value.intValue != nil)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }
}

/// The functions expressions can call.
enum BuiltinFunction: String, CaseIterable, Sendable {
    case length, `default`, join, split, lower, upper, contains, today, now, date
    case addDays = "add_days"
    case json

    static let names = allCases.map(\.rawValue)

    /// What each argument accepts; the count is the arity.
    var parameters: [ArgumentKinds] {
        switch self {
        case .length: [[.string, .array, .object, .null]]
        case .default: [.anything, .anything]
        case .join: [.array, .string]
        case .split: [.string, .string]
        case .lower, .upper: [.string]
        case .contains: [[.string, .array, .object, .null], .anything]
        case .today, .now: []
        case .date: [.string]
        case .addDays: [.string, .integer]
        case .json: [.anything]
        }
    }

    /// `function 'join' takes 2 arguments, got 1`.
    func arityMessage(got: Int) -> String {
        let count = parameters.count
        return "function '\(rawValue)' takes \(count) argument\(count == 1 ? "" : "s"), got \(got)"
    }

    func argumentMessage(_ position: Int, got: String) -> String {
        "function '\(rawValue)' expects \(parameters[position].phrase) as argument \(position + 1), got \(got)"
    }

    /// The result type for arguments of these types (already checked against `parameters`).
    func resultType(_ arguments: [ExprType]) -> ExprType {
        switch self {
        case .length: .integer
        case .default:
            switch arguments.first {
            case .null?: arguments.count > 1 ? arguments[1] : .any
            case let first?: first
            case nil: .any
            }
        case .join, .lower, .upper, .today, .now, .date, .addDays, .json: .string
        case .split: .array(.string)
        case .contains: .boolean
        }
    }

    /// Calls the function. `offsets` are the arguments' offsets, `offset` the name's.
    func evaluate(
        _ arguments: [Value], offsets: [Int], at offset: Int, in context: EvaluationContext
    ) throws(ExpressionError) -> Value {
        guard arguments.count == parameters.count else {
            throw ExpressionError(arityMessage(got: arguments.count), at: offset)
        }
        for (i, argument) in arguments.enumerated() where !parameters[i].accepts(argument) {
            throw ExpressionError(argumentMessage(i, got: argument.typeName), at: i < offsets.count ? offsets[i] : offset)
        }
        func fail(_ message: String) -> ExpressionError { ExpressionError(message, at: offset) }

        switch self {
        case .length:
            switch arguments[0] {
            case .string(let s): return .int(s.count)
            case .array(let a): return .int(a.count)
            case .object(let o): return .int(o.count)
            default: return .int(0)
            }
        case .default:
            return arguments[0].isNull ? arguments[1] : arguments[0]
        case .join:
            let items = arguments[0].arrayValue ?? []
            return .string(items.map(\.interpolatedText).joined(separator: arguments[1].stringValue ?? ""))
        case .split:
            let text = arguments[0].stringValue ?? ""
            let separator = arguments[1].stringValue ?? ""
            if text.isEmpty { return .array([]) }
            let parts = separator.isEmpty ? text.map(String.init) : text.components(separatedBy: separator)
            return .array(parts.map(Value.string))
        case .lower:
            return .string((arguments[0].stringValue ?? "").lowercased())
        case .upper:
            return .string((arguments[0].stringValue ?? "").uppercased())
        case .contains:
            return .bool(try Self.contains(arguments[0], arguments[1], offset: offsets.count > 1 ? offsets[1] : offset))
        case .today:
            guard let text = ExpressionDates.formatDate(context.now, in: context.timeZone) else {
                throw fail("the current time is out of range")
            }
            return .string(text)
        case .now:
            guard let text = ExpressionDates.formatDateTime(context.now, in: context.timeZone) else {
                throw fail("the current time is out of range")
            }
            return .string(text)
        case .date:
            return .string(try Self.normalizedDate(arguments[0].stringValue ?? "", in: context, offset: offset))
        case .addDays:
            let text = try Self.normalizedDate(arguments[0].stringValue ?? "", in: context, offset: offset)
            guard let day = ExpressionDates.parseDay(text), let count = arguments[1].intValue else {
                throw fail("cannot read '\(text)' as a date")
            }
            let (sum, overflow) = day.addingReportingOverflow(count)
            guard !overflow, ExpressionDates.dayRange.contains(sum) else {
                throw fail("adding \(count) days to \(text) leaves the calendar (years 1 to 9999)")
            }
            return .string(ExpressionDates.format(days: sum))
        case .json:
            return .string(JSONText.encode(arguments[0]))
        }
    }

    /// `YYYY-MM-DD` of any date text the program's date parser reads.
    private static func normalizedDate(
        _ text: String, in context: EvaluationContext, offset: Int
    ) throws(ExpressionError) -> String {
        if ExpressionDates.parseDay(text) != nil { return text }
        guard let parsed = DateParser(now: context.now, timeZone: context.timeZone).parse(text) else {
            throw ExpressionError("cannot read '\(text)' as a date", at: offset)
        }
        return DateParser.formatDate(parsed.date, timeZone: context.timeZone)
    }

    private static func contains(_ haystack: Value, _ needle: Value, offset: Int) throws(ExpressionError) -> Bool {
        switch haystack {
        case .string(let text):
            switch needle {
            case .array, .object:
                throw ExpressionError("cannot look for \(needle.typeName) in a string", at: offset)
            default:
                let part = needle.interpolatedText
                return part.isEmpty || text.contains(part)
            }
        case .array(let items):
            return items.contains { Evaluator.dataEqual($0, needle) }
        case .object(let object):
            return needle.stringValue.map { object[$0] != nil } ?? false
        default:
            return false
        }
    }
}
