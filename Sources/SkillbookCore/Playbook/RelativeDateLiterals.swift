import Foundation

/// Literal relative dates in playbooks: a literal string where a `format: date` or `date-time`
/// value is expected (a step parameter, an input default) may be a phrase the date parser reads
/// (`tomorrow 9am`, `next monday`, `明天早上9点`, `下周一`).
///
/// When the playbook loads, such a phrase must parse; it is checked as the date it would be
/// against a fixed clock. When it runs, the engine's parameter coercion and the input resolver
/// resolve it against the run's clock and time zone with the same `DateParser` as `-i` values.
enum RelativeDateLiterals {
    /// 2026-01-01T00:00:00Z: any instant works, a phrase parses or not whatever the clock says.
    private static let coercion = Coercion(
        dates: DateParser(now: Date(timeIntervalSince1970: 1_767_225_600), timeZone: TimeZone(secondsFromGMT: 0) ?? .current))

    static func isDateFormat(_ schema: Schema?) -> Bool {
        schema?.format == "date" || schema?.format == "date-time"
    }

    /// `value` with each string at a date position that is not ISO 8601 but parses replaced by
    /// the date it reads as, for validation; other strings are left for validation to report.
    static func resolvedForChecking(_ value: Value, schema: Schema) -> Value {
        switch value {
        case .string(let text) where isDateFormat(schema):
            guard FormatCheck.problem(text, format: schema.format ?? "") != nil else { return value }
            return coercion.coerce(value, to: Schema(type: .string, format: schema.format))
        case .array(let items):
            guard let itemSchema = schema.items else { return value }
            return .array(items.map { resolvedForChecking($0, schema: itemSchema) })
        case .object(let object):
            return .object(
                ValueObject(
                    object.map { member in
                        (member.key, schema.property(member.key).map { resolvedForChecking(member.value, schema: $0) } ?? member.value)
                    }))
        default:
            return value
        }
    }

    /// Whether a literal default is a relative phrase, so it must be resolved per run.
    static func isRelative(_ value: Value, schema: Schema) -> Bool {
        resolvedForChecking(value, schema: schema) != value
    }
}
