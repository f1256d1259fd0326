import Foundation
import SkillbookCore

/// Writes the log lines of `daemon`, `worker`, `serve` and `mcp` on stderr: as text
/// (`skillbook: EVENT key=value …`, with a `<N>` syslog-priority prefix under systemd, whose
/// journal stamps the time itself) or as one JSON object per line.
struct LogWriter: Sendable {
    var format: LogFormat
    /// `JOURNAL_STREAM` is set: stderr goes to the journal.
    var journald: Bool
    /// `skillbook`, or `skillbook mcp`.
    var prefix: String
    var console: Console
    var now: @Sendable () -> Date = { Date() }

    func callAsFunction(_ text: String) {
        console.err(line(text))
    }

    /// The line written for `text` (without its newline): one line per event, whatever the event's
    /// text holds (a line break in an error message becomes a space).
    func line(_ event: String) -> String {
        let text = event.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
        let parsed = LogLine(text)
        switch format {
        case .text:
            return (journald ? "<\(parsed.level.priority)>" : "") + "\(prefix): \(text)"
        case .json:
            var object = ValueObject()
            object["time"] = .string(Self.timestamp(now()))
            object["level"] = .string(parsed.level.rawValue)
            object["event"] = .string(parsed.event)
            object["message"] = .string(text)
            if let playbook = parsed.playbook { object["playbook"] = .string(playbook) }
            var fields = ValueObject()
            for field in parsed.fields {
                if field.key == "run" { object["run"] = .string(field.value) } else { fields[field.key] = .string(field.value) }
            }
            object["fields"] = .object(fields)
            if prefix != "skillbook" { object["logger"] = .string(prefix) }
            return JSONText.encode(.object(object))
        }
    }

    /// RFC 3339 in UTC with milliseconds: `2026-12-02T17:20:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let seconds = time_t(milliseconds / 1000)
        var parts = tm()
        var copy = seconds
        gmtime_r(&copy, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds.truncatingRemainder(dividingBy: 1000)))
    }
}
