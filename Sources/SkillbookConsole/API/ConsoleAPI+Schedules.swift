import Foundation
import SkillbookCore
import SkillbookHost

extension ConsoleAPI {
    /// `GET /api/v1/schedules`: every entry of every scheduled playbook with its next fires (in the
    /// entry's zone and in UTC), the last run a fire started and its status, the fires it did not
    /// start in the last 7 days (missed or skipped, counted and the newest listed), and the files
    /// with errors — what `skillbook schedule` prints.
    func schedules() async -> ServerResponse {
        do {
            let now = host.configuration.clock.now()
            let (entries, broken) = try await host.scheduleOverview(now: now, count: 3)
            let list: [Value] = entries.map { overview in
                var object: ValueObject = [
                    "playbook": .string(overview.playbook), "entry": .int(overview.entry), "entry_path": .string(overview.entryPath),
                    "trigger": .string(overview.trigger), "timezone": .string(overview.zone.identifier),
                    "next": .array(
                        overview.next.map { fire in
                            ["local": .string(Self.isoTime(fire, overview.zone)), "utc": .string(Self.isoTime(fire, .gmt))]
                        }),
                ]
                if let run = overview.lastRun {
                    object["last"] = [
                        "run": .string(run.id), "status": .string(run.status.rawValue),
                        "scheduled_at": run.scheduledAt.map { .string(Self.isoTime($0, overview.zone)) } ?? .null,
                        "started": .string(Self.isoTime(run.started, overview.zone)),
                    ]
                } else {
                    object["last"] = .null
                }
                object["missed"] = Self.missedJSON(overview)
                object["misses"] = .array(overview.recentMisses.map { Self.missJSON($0, overview.zone) })
                return .object(object)
            }
            return json(
                200,
                [
                    "fired_here": .bool(firesSchedules), "schedules": .array(list),
                    "broken": .array(broken.map { ["file": .string($0.file), "message": .string($0.message)] }),
                ])
        } catch {
            return failure(error)
        }
    }

    /// The fires of an entry not started in the last 7 days: how many, since when, how many per
    /// reason (`catch_up`, `window`, `overlap`); `null` when none.
    static func missedJSON(_ overview: ScheduleOverview) -> Value {
        guard let missed = overview.missed else { return .null }
        var reasons = ValueObject()
        for reason in MissReason.allCases { if let count = missed.reasons[reason] { reasons[reason.rawValue] = .int(count) } }
        return [
            "count": .int(missed.count), "since": .string(isoTime(missed.since, overview.zone)), "reasons": .object(reasons),
            "days": .int(Int(ScheduleOverview.missedPeriod / 86400)),
        ]
    }

    /// One record of the fire ledger that did not start a run: `skipped` (the previous run still
    /// ran) or `missed` (a batch: nothing ran, and `catch_up` or `catch_up_window` dropped them),
    /// as `skillbook schedule history --json` says it.
    static func missJSON(_ record: FireRecord, _ zone: TimeZone) -> Value {
        [
            "outcome": .string(record.missed == .overlap ? "skipped" : "missed"),
            "reason": .string(record.missed?.rawValue ?? ""),
            "scheduled_at": .string(isoTime(record.scheduledAt, zone)),
            "through": record.count > 1 ? .string(isoTime(record.lastScheduledAt, zone)) : .null,
            "count": .int(record.count),
        ]
    }

    /// `2026-12-02T07:30:00+01:00` (`Z` in UTC).
    static func isoTime(_ date: Date, _ zone: TimeZone) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))
    }
}
