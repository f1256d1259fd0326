import Foundation

extension BuiltinFunction {
    /// Calls the function. `offsets` are the arguments' offsets, `offset` the name's.
    func evaluate(
        _ arguments: [Value], offsets: [Int], at offset: Int, in context: EvaluationContext
    ) throws(ExpressionError) -> Value {
        guard (requiredCount...parameters.count).contains(arguments.count) else {
            throw ExpressionError(arityMessage(got: arguments.count), at: offset)
        }
        for (i, argument) in arguments.enumerated() where !parameters[i].accepts(argument) {
            throw ExpressionError(argumentMessage(i, got: argument.typeName), at: i < offsets.count ? offsets[i] : offset)
        }
        func fail(_ message: String) -> ExpressionError { ExpressionError(message, at: offset) }
        let text = arguments.first?.stringValue ?? ""
        let second = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
        let list = arguments.first?.arrayValue ?? []

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
            return .string(list.map(\.interpolatedText).joined(separator: second))
        case .split:
            if text.isEmpty { return .array([]) }
            let parts = second.isEmpty ? text.map(String.init) : TextSearch.split(text, by: second)
            return .array(parts.map(Value.string))
        case .lower:
            return .string(text.lowercased())
        case .upper:
            return .string(text.uppercased())
        case .contains:
            return .bool(try Self.contains(arguments[0], arguments[1], offset: offsets.count > 1 ? offsets[1] : offset))
        case .replace:
            guard !second.isEmpty else { throw fail("function 'replace' needs a non-empty text to replace") }
            return .string(TextSearch.replace(second, with: arguments[2].stringValue ?? "", in: text))
        case .trim:
            return .string(text.trimmingWhiteSpace())
        case .startsWith:
            return .bool(text.hasPrefix(second))
        case .endsWith:
            return .bool(text.hasSuffix(second))
        case .basename:
            return .string(PathParts(text).basename)
        case .dirname:
            return .string(PathParts(text).dirname)
        case .extension:
            return .string(PathParts(text).extension)
        case .keys:
            return .array((arguments[0].objectValue ?? ValueObject()).map { .string($0.key) })
        case .values:
            return .array((arguments[0].objectValue ?? ValueObject()).map(\.value))
        case .first:
            if case .string(let s) = arguments[0] { return s.first.map { .string(String($0)) } ?? .null }
            return list.first ?? .null
        case .last:
            if case .string(let s) = arguments[0] { return s.last.map { .string(String($0)) } ?? .null }
            return list.last ?? .null
        case .unique:
            var seen = Set<Value>()
            return .array(list.filter { seen.insert($0.equalityKey).inserted })
        case .flatten:
            return .array(list.flatMap { $0.arrayValue ?? [$0] })
        case .sum:
            return try ListMath.sum(list, at: offset)
        case .min, .max:
            let sorted = try ListMath.sorted(list, function: rawValue, at: offset)
            return (self == .min ? sorted.first : sorted.last) ?? .null
        case .sort:
            return .array(try ListMath.sorted(list, function: rawValue, at: offset))
        case .round:
            return try ListMath.round(arguments[0], digits: arguments.count > 1 ? arguments[1].intValue : nil, at: offset)
        case .fromJSON:
            do { return try JSONText.decode(text) } catch {
                throw fail("function 'from_json' cannot read its text as JSON: \(error.message) at byte \(error.offset)")
            }
        case .toJSON, .json:
            return .string(JSONText.encode(arguments[0]))
        case .secret:
            guard let value = context.secrets[text] else {
                throw fail("the secret '\(text)' has no value in this run; name it under 'secrets:' in skillbook.yaml")
            }
            return .string(value)
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
            return .string(try Self.normalizedDate(text, in: context, offset: offset))
        case .addDays:
            let day = try Self.normalizedDate(text, in: context, offset: offset)
            guard let number = ExpressionDates.parseDay(day), let count = arguments[1].intValue else {
                throw fail("cannot read '\(day)' as a date")
            }
            let (sum, overflow) = number.addingReportingOverflow(count)
            guard !overflow, ExpressionDates.dayRange.contains(sum) else {
                throw fail("adding \(count) days to \(day) leaves the calendar (years 1 to 9999)")
            }
            return .string(ExpressionDates.format(days: sum))
        case .formatDate:
            return .string(try Self.formatDate(text, pattern: second, in: context, offset: offset))
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

    /// The date (ISO 8601 or a relative phrase) in the run's time zone, written with a Unicode
    /// date pattern (`yyyy-MM-dd`, `EEEE d MMMM`, `HH:mm`) in English.
    private static func formatDate(
        _ text: String, pattern: String, in context: EvaluationContext, offset: Int
    ) throws(ExpressionError) -> String {
        guard let parsed = DateParser(now: context.now, timeZone: context.timeZone).parse(text) else {
            throw ExpressionError("cannot read '\(text)' as a date", at: offset)
        }
        guard !pattern.isEmpty else { throw ExpressionError("function 'format_date' needs a pattern such as 'yyyy-MM-dd'", at: offset) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = context.timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: parsed.date)
    }

    private static func contains(_ haystack: Value, _ needle: Value, offset: Int) throws(ExpressionError) -> Bool {
        switch haystack {
        case .string(let text):
            switch needle {
            case .array, .object:
                throw ExpressionError("cannot look for \(needle.typeName) in a string", at: offset)
            default:
                let part = needle.interpolatedText
                return TextSearch.contains(part, in: text)
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

extension Value {
    /// Equal under `==` means equal keys: integral numbers are integers (`1` and `1.0` are one key).
    var equalityKey: Value {
        switch self {
        case .double(let d): intValue.map(Value.int) ?? .double(d)
        case .array(let items): .array(items.map(\.equalityKey))
        case .object(let object): .object(ValueObject(object.map { ($0.key, $0.value.equalityKey) }))
        default: self
        }
    }
}

/// `basename`, `dirname` and `extension` of a `/`-separated path, as POSIX tools read it.
struct PathParts {
    let basename: String
    let dirname: String

    init(_ path: String) {
        let trimmed = Self.droppingTrailingSlashes(Substring(path))
        guard let slash = trimmed.lastIndex(of: "/") else {
            basename = String(trimmed)
            dirname = "."
            return
        }
        if trimmed == "/" {
            basename = "/"
            dirname = "/"
            return
        }
        basename = String(trimmed[trimmed.index(after: slash)...])
        let parent = Self.droppingTrailingSlashes(trimmed[..<slash])
        dirname = parent.isEmpty ? "/" : String(parent)
    }

    /// `text` without its trailing slashes, one kept when it is nothing else; each step O(1) by
    /// slicing at an index (`count`, or `dropLast()`, which measures the text, in the loop made
    /// `a` + 100,000 slashes take 38 s).
    private static func droppingTrailingSlashes(_ text: Substring) -> Substring {
        var text = text
        while text.last == "/", text.index(after: text.startIndex) != text.endIndex {
            text = text[..<text.index(before: text.endIndex)]
        }
        return text
    }

    /// After the last `.` of the base name, without the dot; empty for `.bashrc` and `notes`.
    var `extension`: String {
        guard let dot = basename.lastIndex(of: "."), dot != basename.startIndex else { return "" }
        return String(basename[basename.index(after: dot)...])
    }
}
