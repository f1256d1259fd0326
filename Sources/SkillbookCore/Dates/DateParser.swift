// TEMPORARY STAND-IN — DROP THIS FILE AT MERGE.
// The real DateParser (relative words, many languages) is written elsewhere with this same API.
// This one reads only ISO 8601 dates and date-times, so the expression functions compile and test.
public import Foundation

public struct ParsedDate: Sendable, Hashable {
    public var date: Date
    public var hasTime: Bool

    public init(date: Date, hasTime: Bool) {
        self.date = date
        self.hasTime = hasTime
    }
}

public struct DateParser: Sendable {
    public var now: Date
    public var timeZone: TimeZone

    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// `YYYY-MM-DD` (midnight in the time zone) or `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]`.
    public func parse(_ text: String) -> ParsedDate? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard day.count == 3, parts[0].count == 10 else { return nil }
        var components = DateComponents(year: day[0], month: day[1], day: day[2])
        var zone = timeZone
        if parts.count == 2 {
            var time = String(parts[1])
            if time.hasSuffix("Z") {
                time.removeLast()
                zone = TimeZone(secondsFromGMT: 0) ?? timeZone
            } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                let offset = time[time.index(after: sign)...].split(separator: ":").compactMap { Int($0) }
                guard offset.count == 2, (0..<24).contains(offset[0]), (0..<60).contains(offset[1]) else { return nil }
                let seconds = (offset[0] * 3600 + offset[1] * 60) * (time[sign] == "-" ? -1 : 1)
                guard let fixed = TimeZone(secondsFromGMT: seconds) else { return nil }
                zone = fixed
                time = String(time[..<sign])
            }
            let clock = time.split(separator: ":").compactMap { Int($0) }
            guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ (0..<61).contains($0) }) else { return nil }
            components.hour = clock[0]
            components.minute = clock[1]
            components.second = clock.count == 3 ? clock[2] : 0
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return ParsedDate(date: date, hasTime: parts.count == 2)
    }

    public static func formatDate(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    public static func formatDateTime(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: date)
    }
}
