public import Foundation
import SkillbookCore

/// `skillbook schedule next EXPR [--timezone ZONE] [--from TIME] [--count N]`: the next fire
/// times of a cron expression, one ISO 8601 timestamp with offset per line.
public enum ScheduleNext {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var messages: [String]
        public var description: String { messages.joined(separator: "\n") }
    }

    /// The lines to print, or every problem with the arguments (exit 2).
    public static func lines(
        expression text: String, timezone: String? = nil, from: String? = nil, count: Int = 5,
        now: Date = Date(), machineZone: TimeZone = .current
    ) -> Result<[String], Failure> {
        var messages: [String] = []
        var zone = machineZone
        if let timezone {
            if let found = TimeZone(identifier: timezone) {
                zone = found
            } else {
                let suggestion = Suggestion.timeZone(for: timezone)
                    .map { "; did you mean '\($0)'?" } ?? ""
                messages.append("--timezone: unknown time zone '\(timezone)'\(suggestion)")
            }
        }
        var start = now
        if let from {
            if let parsed = ISOTime.parse(from, in: zone) {
                start = parsed
            } else {
                messages.append("--from: '\(from)' is not a time such as 2026-03-29T01:30 or 2026-03-29T01:30:00+01:00")
            }
        }
        if !(1...1000).contains(count) { messages.append("--count: must be a whole number between 1 and 1000") }
        var expression: CronExpression?
        switch CronParser.parse(text) {
        case .success(let parsed): expression = parsed
        case .failure(let errors): messages += errors.problems.map { "cron '\(text)': \($0.message)" }
        }
        guard messages.isEmpty, let expression else { return .failure(Failure(messages: messages)) }
        let fires = CronSchedule(expression, zone: zone).fires(after: start, count: count)
        return .success(fires.map { ISOTime.format($0, in: zone) })
    }
}
