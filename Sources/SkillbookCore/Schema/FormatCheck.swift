import Foundation

/// Checks the `format` keyword of string schemas, exactly as the RFCs define each format
/// (`path` is Skillbook's own: any non-empty text without NUL; `regex` is a regular expression in
/// the ICU syntax the skills match with, not ECMA 262's).
public enum FormatCheck {
    public static let knownFormats: Set<String> = ["date", "date-time", "time", "duration", "uri", "email", "path", "regex"]

    /// A predicate describing why `text` is not in `format`, or `nil` when it is.
    /// With `secret`, the text is shown as `***`.
    public static func problem(_ text: String, format: String, secret: Bool = false) -> String? {
        let shown = secret ? "***" : "'\(text)'"
        switch format {
        case "date":
            return isDate(Substring(text)) ? nil : "must be a date like 2026-11-30, got \(shown)"
        case "date-time":
            return isDateTime(text) ? nil : "must be a date-time like 2026-11-30T09:00:00Z, got \(shown)"
        case "time":
            return isTime(Substring(text)) ? nil : "must be a time with an offset like 09:30:00Z or 09:30:00+01:00, got \(shown)"
        case "duration":
            return isDuration(text) ? nil : "must be an ISO 8601 duration like PT30S, PT5M, P1DT2H or P2W, got \(shown)"
        case "uri":
            return isURI(text) ? nil : "must be a URI like https://example.com, got \(shown)"
        case "email":
            return isEmail(text) ? nil : "must be an email address like ada@example.com, got \(shown)"
        case "path":
            return text.isEmpty || text.contains("\0") ? "must be a non-empty file path" : nil
        case "regex":
            return isRegex(text) ? nil : "must be a regular expression that compiles (ICU syntax, such as \\d+ or (?i)total: (\\d+)), got \(shown)"
        default:
            return nil
        }
    }

    /// A regular expression ICU compiles (what `NSRegularExpression` takes).
    static func isRegex(_ text: String) -> Bool {
        (try? NSRegularExpression(pattern: text)) != nil
    }

    static func digits(_ s: Substring, _ count: Int) -> Bool {
        s.count == count && s.allSatisfy(\.isASCIIDigit)
    }

    /// RFC 3339 `full-date`: `YYYY-MM-DD`, a day that exists in that month.
    static func isDate(_ s: Substring) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, digits(parts[0], 4), digits(parts[1], 2), digits(parts[2], 2),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return false }
        guard (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...length).contains(day)
    }

    /// RFC 3339 `full-time`: `HH:MM:SS[.frac]` and an offset (`Z`, `z`, `+HH:MM`, `-HH:MM`); a leap
    /// second (`:60`) only where the time in UTC is 23:59:60.
    static func isTime(_ s: Substring) -> Bool {
        guard s.count >= 9 else { return false }
        let clock = s.prefix(8)
        var rest = s.dropFirst(8)
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ digits($0, 2) }) else { return false }
        let (hour, minute, second) = (Int(parts[0])!, Int(parts[1])!, Int(parts[2])!)
        guard hour < 24, minute < 60, second <= 60 else { return false }
        if rest.first == "." {
            let fraction = rest.dropFirst().prefix { $0.isASCIIDigit }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(1 + fraction.count)
        }
        var offsetMinutes = 0
        if rest == "Z" || rest == "z" {
            offsetMinutes = 0
        } else {
            guard rest.count == 6, let sign = rest.first, sign == "+" || sign == "-" else { return false }
            let offset = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard offset.count == 2, digits(offset[0], 2), digits(offset[1], 2),
                let offsetHour = Int(offset[0]), let offsetMinute = Int(offset[1]), offsetHour < 24, offsetMinute < 60
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (sign == "+" ? 1 : -1)
        }
        guard second == 60 else { return true }
        let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
        return utc == 23 * 60 + 59
    }

    /// RFC 3339 `date-time`: a full date, `T` (or `t`), a full time with its offset.
    static func isDateTime(_ text: String) -> Bool {
        guard text.count > 11 else { return false }
        let separator = text.index(text.startIndex, offsetBy: 10)
        guard text[separator] == "T" || text[separator] == "t" else { return false }
        return isDate(text[..<separator]) && isTime(text[text.index(after: separator)...])
    }

    /// The ISO 8601 duration grammar of RFC 3339 appendix A: `P` then weeks alone (`P2W`), or
    /// date parts (`Y` [`M` [`D`]], `M` [`D`], `D`) and/or `T` with time parts (`H` [`M` [`S`]],
    /// `M` [`S`], `S`); whole numbers only.
    static func isDuration(_ text: String) -> Bool {
        guard text.hasPrefix("P") else { return false }
        var elements: [(number: Substring, unit: Character)] = []
        var rest = Substring(text.dropFirst())
        var timeAt: Int?
        while let first = rest.first {
            if first == "T" {
                guard timeAt == nil else { return false }
                timeAt = elements.count
                rest = rest.dropFirst()
                continue
            }
            let number = rest.prefix(while: \.isASCIIDigit)
            guard !number.isEmpty, let unit = rest.dropFirst(number.count).first else { return false }
            elements.append((number, unit))
            rest = rest.dropFirst(number.count + 1)
        }
        let date = String(elements[..<(timeAt ?? elements.count)].map(\.unit))
        let time = String(elements[(timeAt ?? elements.count)...].map(\.unit))
        if date == "W" { return timeAt == nil }
        let dates: Set<String> = ["", "Y", "YM", "YMD", "M", "MD", "D"]
        let times: Set<String> = ["H", "HM", "HMS", "M", "MS", "S"]
        guard dates.contains(date) else { return false }
        if timeAt != nil { return times.contains(time) }
        return !date.isEmpty
    }
}

/// Durations written as `30s`, `5m`, `2h`, `1d`, `500ms`, `1.5h`, or a bare number of seconds.
public enum DurationText {
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingWhiteSpace(keepingLineBreaks: true)
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count)
            if let value = Double(number), value >= 0, value.isFinite, !number.hasPrefix("+") {
                return value * factor
            }
        }
        if let value = Double(trimmed), value >= 0, value.isFinite { return value }
        return nil
    }
}
