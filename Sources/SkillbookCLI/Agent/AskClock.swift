import Foundation
import SkillbookAgent
import SkillbookSchedule

/// The clock of `ask` and `chat`: `--now ISO` and `--timezone ZONE`, else the machine's.
enum AskClock {
    static func make(now: String?, timezone: String?, command: String) throws(UsageError) -> Matcher.ReferenceTime {
        var zone = TimeZone.current
        if let timezone {
            guard let named = TimeZone(identifier: timezone) else {
                throw UsageError(message: "--timezone: unknown time zone '\(timezone)' (an IANA name such as Europe/Berlin)", command: command)
            }
            zone = named
        }
        var date = Date()
        if let now {
            guard let parsed = ISOTime.parse(now, in: zone) else {
                throw UsageError(
                    message: "--now: '\(now)' is not an ISO 8601 time (2026-12-01T09:15:00+01:00, or a wall time in --timezone)",
                    command: command)
            }
            date = parsed
        }
        return Matcher.ReferenceTime(now: date, timeZone: zone)
    }
}
