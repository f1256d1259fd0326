import Foundation

/// The one lenient coercion for values that come from the command line or from a model, applied
/// before validation.
///
/// Coercion never fails: a value it cannot bring closer to the schema is returned unchanged, so
/// the validator reports it with the value as the user wrote it. The rules, by schema type:
/// - string: text stays as written; an integer or number becomes its text (models often send
///   `5` for a string); with `format: date` any date the `DateParser` reads becomes `YYYY-MM-DD`,
///   with `format: date-time` it becomes `2026-11-30T09:00:00+01:00` (a date-time already written
///   with `Z` or an offset is kept as written), with `format: time` a time becomes `HH:MM:SS+01:00`
///   (the offset of the time zone), with `format: duration` `30s`, `5m`, `2h`, `1d` become `PT30S`,
///   `PT5M`, `PT2H`, `P1D`; with `format: uri` an IRI (`https://example.com/博客`) becomes its URI
///   (`https://example.com/%E5%8D%9A%E5%AE%A2`);
///   a text matching an `enum` value except for case becomes that value.
/// - integer: `"42"` → 42, `"4.0"` and `4.0` → 4.
/// - number: `"4.5"` → 4.5, `"42"` → 42.
/// - boolean: `"true"`/`"yes"`/`"1"` → true, `"false"`/`"no"`/`"0"` → false (any case), 1/0 → true/false.
/// - array: elements are coerced by `items`; a text in brackets is read as a YAML flow sequence
///   (`[a, b]`); any other single value becomes a one-element array.
/// - object: members are coerced by their property schemas; a text in braces is read as a YAML
///   flow mapping (`{x: 1}`).
/// - `anyOf`/`oneOf` without a `type`: the first alternative's coercion that the whole schema accepts.
/// - `null` is left as it is, for every schema.
/// The same list, with reasons, is in docs/schemas.md.
public struct Coercion: Sendable {
    public let dates: DateParser

    public init(dates: DateParser) {
        self.dates = dates
    }

    /// Coerces leniently toward `schema`; values that cannot be coerced are returned unchanged (validation reports them).
    public func coerce(_ value: Value, to written: Schema) -> Value {
        if value == .null { return value }
        let schema = written.resolved
        if schema.type == nil, let alternatives = schema.fields.anyOf ?? schema.fields.oneOf {
            return firstValid(alternatives.map { coerce(value, to: $0) }, schema) ?? value
        }
        let coerced: Value =
            switch schema.type {
            case nil, .null?: formatted(value, schema)
            case .string: formatted(toString(value), schema)
            case .integer: toInteger(value)
            case .number: toNumber(value)
            case .boolean: toBoolean(value)
            case .array: toArray(value, schema)
            case .object: toObject(value, schema)
            }
        return matchingEnum(coerced, schema)
    }

    /// A command-line text (`-i key=text`) read for `schema`: strings stay strings for string schemas,
    /// "42"→42 for integer, "4.5"→4.5 for number, "true"/"false"/"yes"/"no"/"1"/"0" → Bool for boolean,
    /// a YAML flow value for array/object (`[a, b]`, `{x: 1}`), a bare text where an array is expected
    /// becomes a one-element array (`tags=urgent` → ["urgent"]; commas stay literal outside brackets,
    /// and an empty text is the empty array), and for a schema without a type YAML scalar resolution
    /// (an empty text stays an empty string). Text that cannot be read stays a string, for validation to report.
    public func coerceCommandLine(_ text: String, to written: Schema) -> Value {
        let schema = written.resolved
        let trimmed = text.trimmingWhiteSpace()
        if schema.type == nil, let alternatives = schema.fields.anyOf ?? schema.fields.oneOf {
            let plain = coerceCommandLine(text, to: schema.with { $0.anyOf = nil; $0.oneOf = nil })
            return firstValid([plain] + alternatives.map { coerceCommandLine(text, to: $0) }, schema) ?? plain
        }
        switch schema.type {
        case .string, .integer, .number, .boolean:
            return coerce(.string(text), to: schema)
        case .array:
            if trimmed.hasPrefix("[") {
                guard let value = flowValue(trimmed), value.arrayValue != nil else { return .string(text) }
                return coerce(value, to: schema)
            }
            if trimmed.isEmpty { return .array([]) }
            return .array([coerceCommandLine(text, to: schema.items ?? .any)])
        case .object:
            guard trimmed.hasPrefix("{"), let value = flowValue(trimmed), value.objectValue != nil else {
                return .string(text)
            }
            return coerce(value, to: schema)
        case nil, .null?:
            if trimmed.hasPrefix("[") || trimmed.hasPrefix("{") {
                return flowValue(trimmed).map { coerce($0, to: schema) } ?? .string(text)
            }
            if text.isEmpty { return .string(text) }
            return coerce(YAMLScalarResolver.resolvePlain(text), to: schema)
        }
    }

    // MARK: - By type

    private func toString(_ value: Value) -> Value {
        switch value {
        case .int(let i): .string(String(i))
        case .double(let d) where d.isFinite: .string(JSONText.number(d))
        default: value
        }
    }

    private func toInteger(_ value: Value) -> Value {
        switch value {
        case .double(let d): return integral(d) ?? value
        case .string(let text):
            switch number(in: text) {
            case .int(let i)?: return .int(i)
            case .double(let d)?: return integral(d) ?? value
            default: return value
            }
        default: return value
        }
    }

    private func toNumber(_ value: Value) -> Value {
        guard case .string(let text) = value else { return value }
        return number(in: text) ?? value
    }

    private func toBoolean(_ value: Value) -> Value {
        switch value {
        case .string(let text):
            switch text.trimmingWhiteSpace().lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return value
            }
        case .int(1): return .bool(true)
        case .int(0): return .bool(false)
        default: return value
        }
    }

    private func toArray(_ value: Value, _ schema: Schema) -> Value {
        let items = schema.items ?? .any
        switch value {
        case .array(let elements):
            return .array(elements.map { coerce($0, to: items) })
        case .string(let text) where text.trimmingWhiteSpace(keepingLineBreaks: true).hasPrefix("["):
            if let parsed = flowValue(text), case .array(let elements) = parsed {
                return .array(elements.map { coerce($0, to: items) })
            }
            return value
        default:
            return .array([coerce(value, to: items)])
        }
    }

    private func toObject(_ value: Value, _ schema: Schema) -> Value {
        switch value {
        case .object(let object):
            var result = ValueObject()
            for (key, member) in object {
                result[key] = schema.property(key).map { coerce(member, to: $0) } ?? member
            }
            return .object(result)
        case .string(let text) where text.trimmingWhiteSpace(keepingLineBreaks: true).hasPrefix("{"):
            if let parsed = flowValue(text), parsed.objectValue != nil {
                return toObject(parsed, schema)
            }
            return value
        default:
            return value
        }
    }

    // MARK: - Helpers

    /// The first candidate that `schema` accepts.
    private func firstValid(_ candidates: [Value], _ schema: Schema) -> Value? {
        candidates.first { SchemaValidator.isValid($0, against: schema) }
    }

    /// Dates and times in a string, by the schema's `format`.
    private func formatted(_ value: Value, _ schema: Schema) -> Value {
        guard case .string(let text) = value, let format = schema.format else { return value }
        switch format {
        case "date":
            guard let parsed = dates.parse(text) else { return value }
            return .string(DateParser.formatDate(parsed.date, timeZone: dates.timeZone))
        case "date-time":
            let zoned =
                text.hasSuffix("Z") || text.hasSuffix("z") || text.dropFirst(10).contains { $0 == "+" || $0 == "-" }
            if zoned, FormatCheck.problem(text, format: "date-time") == nil { return value }
            guard let parsed = dates.parse(text) else { return value }
            return .string(DateParser.formatDateTime(parsed.date, timeZone: dates.timeZone))
        case "time":
            guard FormatCheck.problem(text, format: "time") != nil, let parsed = dates.parse(text), parsed.hasTime
            else { return value }
            return .string(String(DateParser.formatDateTime(parsed.date, timeZone: dates.timeZone).dropFirst(11)))
        case "uri":
            // An IRI (`https://example.com/博客`) becomes its URI, as RFC 3987 §3.1 maps one: each
            // character outside ASCII as the percent-encoded bytes of its UTF-8.
            guard FormatCheck.problem(text, format: "uri") != nil, text.unicodeScalars.contains(where: { !$0.isASCII }) else { return value }
            guard let uri = text.addingPercentEncoding(withAllowedCharacters: Self.ascii), FormatCheck.problem(uri, format: "uri") == nil
            else { return value }
            return .string(uri)
        case "duration":
            guard FormatCheck.problem(text, format: "duration") != nil, let seconds = DurationText.seconds(text),
                seconds.rounded() == seconds, seconds < 1e12
            else { return value }
            return .string(Self.isoDuration(Int(seconds)))
        default:
            return value
        }
    }

    /// Every ASCII character: what an IRI keeps as it is when it becomes a URI.
    private static let ascii = CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127))

    /// Whole seconds as an ISO 8601 duration: `P2D`, `PT1H30M`, `PT1H0M5S`, `PT0S`.
    static func isoDuration(_ seconds: Int) -> String {
        if seconds > 0, seconds % 86400 == 0 { return "P\(seconds / 86400)D" }
        let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
        var text = "PT"
        if h > 0 { text += "\(h)H" }
        if m > 0 || (h > 0 && s > 0) { text += "\(m)M" }
        if s > 0 || (h == 0 && m == 0) { text += "\(s)S" }
        return text
    }

    /// A text matching one `enum` string except for letter case becomes that string.
    private func matchingEnum(_ value: Value, _ schema: Schema) -> Value {
        guard case .string(let text) = value, let allowed = schema.enumValues, !allowed.contains(value) else {
            return value
        }
        let matches = allowed.filter { $0.stringValue?.lowercased() == text.lowercased() }
        return matches.count == 1 ? matches[0] : value
    }

    /// A finite number written as YAML would read it (`42`, `-3`, `4.5`, `1e3`, `0x1F`).
    private func number(in text: String) -> Value? {
        switch YAMLScalarResolver.resolvePlain(text.trimmingWhiteSpace()) {
        case .int(let i): .int(i)
        case .double(let d) where d.isFinite: .double(d)
        default: nil
        }
    }

    private func integral(_ d: Double) -> Value? {
        d.isFinite && d.rounded() == d && abs(d) < 9.0e15 ? .int(Int(d)) : nil
    }

    /// A YAML flow value (`[a, b]`, `{x: 1}`), or `nil` when the text does not load.
    private func flowValue(_ text: String) -> Value? {
        guard let node = try? YAMLLoader().load(text, file: "<value>") else { return nil }
        return node.value
    }
}
