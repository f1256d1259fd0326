import Foundation
import SkillbookCore
import SkillbookHost

extension ConsoleAPI {
    /// `GET /api/v1/schedules`: every entry of every scheduled playbook with its next fires (in the
    /// entry's zone and in UTC), the last run a fire started and its status, and the files with
    /// errors — what `skillbook schedule` prints.
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

    /// `2026-12-02T07:30:00+01:00` (`Z` in UTC).
    static func isoTime(_ date: Date, _ zone: TimeZone) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))
    }
}
