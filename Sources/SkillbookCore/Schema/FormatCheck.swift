import Foundation

/// Checks the `format` keyword of string schemas.
public enum FormatCheck {
    public static let knownFormats: Set<String> = ["date", "date-time", "time", "duration", "uri", "email", "path"]

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
            return isTime(Substring(text)) ? nil : "must be a time like 09:30 or 09:30:00, got \(shown)"
        case "duration":
            return isDuration(text) ? nil : "must be a duration like 30s, 5m, 2h or PT5M, got \(shown)"
        case "uri":
            return isURI(text) ? nil : "must be a URI like https://example.com, got \(shown)"
        case "email":
            return isEmail(text) ? nil : "must be an email address, got \(shown)"
        case "path":
            return text.isEmpty || text.contains("\0") ? "must be a non-empty file path" : nil
        default:
            return nil
        }
    }

    static func digits(_ s: Substring, _ count: Int) -> Bool {
        s.count == count && s.allSatisfy(\.isASCIIDigit)
    }

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

    static func isTime(_ s: Substring) -> Bool {
        var body = s
        if let dot = body.firstIndex(of: ".") {
            guard body[body.index(after: dot)...].allSatisfy(\.isASCIIDigit) else { return false }
            body = body[..<dot]
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ digits($0, 2) }) else { return false }
        let numbers = parts.compactMap { Int($0) }
        return numbers[0] < 24 && numbers[1] < 60 && (numbers.count < 3 || numbers[2] < 61)
    }

    static func isDateTime(_ text: String) -> Bool {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }) else { return false }
        guard isDate(text[..<separator]) else { return false }
        var time = text[text.index(after: separator)...]
        if time.hasSuffix("Z") || time.hasSuffix("z") {
            time = time.dropLast()
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = time[time.index(after: sign)...]
            guard isTime(offset) || digits(offset, 4) || digits(offset, 2) else { return false }
            time = time[..<sign]
        }
        return isTime(time)
    }

    static func isDuration(_ text: String) -> Bool {
        if text.hasPrefix("P") {
            let body = text.dropFirst()
            return !body.isEmpty && body.allSatisfy { $0.isASCIIDigit || "YMWDTHS.".contains($0) }
                && body.contains(where: \.isASCIIDigit)
        }
        return DurationText.seconds(text) != nil
    }

    static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        let rest = text[text.index(after: colon)...]
        return !rest.isEmpty && !text.contains(where: \.isWhitespace)
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
        else { return false }
        return !text.contains(where: \.isWhitespace)
    }
}

/// Durations written as `30s`, `5m`, `2h`, `1d`, `500ms`, `1.5h`, or a bare number of seconds.
public enum DurationText {
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
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
