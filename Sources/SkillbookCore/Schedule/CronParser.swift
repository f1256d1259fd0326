import Foundation

/// Parses cron text into a `CronExpression`, collecting one error per bad field.
///
/// Accepted per field, as in Debian cron: `*`, a number or name, a range `a-b`, a step `x/n` (over
/// `*`, a range, or from a single value to the field's maximum), and comma lists of these. Names are
/// the first three letters of months and weekdays, in any case, also as range ends.
public enum CronParser {
    struct FieldSpec {
        var number: Int
        var name: String
        var range: ClosedRange<Int>
        var names: [String]
        /// The value the first name stands for.
        var nameBase: Int
    }

    static let specs: [FieldSpec] = [
        FieldSpec(number: 1, name: "minute", range: 0...59, names: [], nameBase: 0),
        FieldSpec(number: 2, name: "hour", range: 0...23, names: [], nameBase: 0),
        FieldSpec(number: 3, name: "day-of-month", range: 1...31, names: [], nameBase: 1),
        FieldSpec(
            number: 4, name: "month", range: 1...12,
            names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], nameBase: 1),
        FieldSpec(
            number: 5, name: "day-of-week", range: 0...7, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
            nameBase: 0),
    ]

    static let daysInMonth = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    /// The expression, or every problem found in it.
    public static func parse(_ text: String) -> Result<CronExpression, CronErrors> {
        let trimmed = text.trimmingWhiteSpace(keepingLineBreaks: true)
        let leading = text.prefix { $0 == " " || $0 == "\t" }.count
        var body = trimmed
        if trimmed.hasPrefix("@") {
            guard let expansion = CronExpression.macros[trimmed.lowercased()] else {
                let suggestion = Suggestion.closest(to: trimmed.lowercased(), in: CronExpression.macros.keys.sorted())
                    .map { "; did you mean '\($0)'?" } ?? ""
                let known = "@hourly, @daily, @weekly, @monthly, @yearly, @annually, @midnight"
                return .failure(CronErrors([CronError("unknown macro '\(trimmed)' (known: \(known))\(suggestion)", offset: leading)]))
            }
            body = expansion
        }
        // Fields with their offsets in `text`.
        var fields: [(text: String, offset: Int)] = []
        var current = ""
        var start = 0
        for (index, character) in text.enumerated() {
            if character == " " || character == "\t" {
                if !current.isEmpty { fields.append((current, start)) }
                current = ""
            } else {
                if current.isEmpty { start = index }
                current.append(character)
            }
        }
        if !current.isEmpty { fields.append((current, start)) }
        if body != trimmed { fields = body.split(separator: " ").map { (String($0), leading) } }
        guard fields.count == 5 else {
            let hint = fields.count == 6 ? " (a seconds field is not part of cron)" : ""
            return .failure(CronErrors([
                CronError(
                    "expected 5 fields (minute hour day-of-month month day-of-week), got \(fields.count)\(hint)",
                    offset: leading)
            ]))
        }
        var errors: [CronError] = []
        var sets: [UInt64] = []
        for (spec, field) in zip(specs, fields) {
            switch parseField(field.text, spec) {
            case .success(let bits): sets.append(bits)
            case .failure(let problem):
                errors.append(
                    CronError(
                        "field \(spec.number) (\(spec.name)): \(problem.message)",
                        offset: field.offset + problem.offset))
                sets.append(0)
            }
        }
        guard errors.isEmpty else { return .failure(CronErrors(errors)) }
        var weekdays = sets[4]
        if weekdays & (1 << 7) != 0 { weekdays = (weekdays | 1) & 0x7F }
        let expression = CronExpression(
            source: trimmed, fields: fields.map(\.text), minutes: sets[0], hours: UInt32(sets[1]),
            daysOfMonth: UInt32(sets[2]), months: UInt16(sets[3]), daysOfWeek: UInt8(weekdays),
            dayOfMonthRestricted: !fields[2].text.hasPrefix("*"), dayOfWeekRestricted: !fields[4].text.hasPrefix("*"),
            hasFixedTime: !fields[0].text.hasPrefix("*") && !fields[1].text.hasPrefix("*"))
        if !(expression.dayOfMonthRestricted && expression.dayOfWeekRestricted) {
            // Day-of-month alone decides: it must exist in one of the months.
            let longest: Int = (1...12).filter { sets[3] & (1 << UInt64($0)) != 0 }.map { daysInMonth[$0] }.max() ?? 0
            let first: Int = (1...31).first { sets[2] & (1 << UInt64($0)) != 0 } ?? 0
            if first > longest {
                return .failure(CronErrors([
                    CronError("never fires: no month in field 4 has a day \(first)", offset: fields[2].offset)
                ]))
            }
        }
        return .success(expression)
    }

    /// One field's bitset, or a problem with the offset inside the field.
    static func parseField(_ text: String, _ spec: FieldSpec) -> Result<UInt64, CronError> {
        var bits: UInt64 = 0
        var offset = 0
        for term in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += term.count + 1 }
            if term.isEmpty { return .failure(CronError("empty entry in the list '\(text)'", offset: offset)) }
            switch parseTerm(String(term), spec) {
            case .success(let termBits): bits |= termBits
            case .failure(let problem): return .failure(CronError(problem.message, offset: offset + problem.offset))
            }
        }
        return .success(bits)
    }

    static func parseTerm(_ term: String, _ spec: FieldSpec) -> Result<UInt64, CronError> {
        var rangePart = Substring(term)
        var step = 1
        var hasStep = false
        if let slash = term.firstIndex(of: "/") {
            rangePart = term[..<slash]
            let stepText = term[term.index(after: slash)...]
            let stepOffset = term.distance(from: term.startIndex, to: slash) + 1
            guard let value = Int(stepText), stepText.allSatisfy(\.isASCII) else {
                return .failure(CronError("step '\(stepText)' must be a whole number", offset: stepOffset))
            }
            guard value >= 1 else { return .failure(CronError("step \(value) must be at least 1", offset: stepOffset)) }
            step = value
            hasStep = true
        }
        var low = spec.range.lowerBound
        var high = spec.range.upperBound
        if rangePart != "*" {
            let ends = rangePart.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            switch value(ends[0], spec) {
            case .success(let v): low = v
            case .failure(let e): return .failure(e)
            }
            if ends.count == 2 {
                switch value(ends[1], spec) {
                case .success(let v): high = v
                case .failure(let e): return .failure(CronError(e.message, offset: ends[0].count + 1))
                }
                if high < low {
                    return .failure(CronError("range \(rangePart) ends before it starts", offset: 0))
                }
            } else if !hasStep {
                high = low
            }
        }
        var bits: UInt64 = 0
        for v in stride(from: low, through: high, by: step) { bits |= 1 << UInt64(v) }
        return .success(bits)
    }

    static func value(_ text: Substring, _ spec: FieldSpec) -> Result<Int, CronError> {
        if text.isEmpty { return .failure(CronError("a number is missing", offset: 0)) }
        if let index = spec.names.firstIndex(of: text.lowercased()) { return .success(index + spec.nameBase) }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) else {
            let kind = spec.names.isEmpty ? "a number" : "a number or a \(spec.name == "month" ? "month" : "day") name"
            let suggestion = spec.names.isEmpty
                ? "" : Suggestion.closest(to: text.lowercased(), in: spec.names).map { "; did you mean '\($0)'?" } ?? ""
            return .failure(CronError("'\(text)' is not \(kind)\(suggestion)", offset: 0))
        }
        guard spec.range.contains(number) else {
            return .failure(
                CronError("\(number) is out of range \(spec.range.lowerBound)-\(spec.range.upperBound)", offset: 0))
        }
        return .success(number)
    }
}
