import Foundation
import SkillbookCore
import SkillbookSchedule

/// `schedule_next_fire`: microseconds per `CronSchedule.nextFire(after:)` call, averaged over a
/// mix of expressions in Europe/Berlin (every minute, weekday mornings, a DST-night time, the 31st,
/// Feb 29 on Mondays), each asked for 2,000 fires in a row.
struct ScheduleNextFireBench {
    var runs = 3
    var firesPerExpression = 2_000
    static let expressions = ["* * * * *", "30 7 * * 1-5", "30 2 * * *", "0 0 31 * *", "0 0 29 2 1", "*/15 9-17 * * mon-fri"]

    func run() async throws -> Figure {
        guard let zone = TimeZone(identifier: "Europe/Berlin") else { throw BenchError("no zone Europe/Berlin") }
        let schedules = try Self.expressions.map { CronSchedule(try CronParser.parse($0).get(), zone: zone) }
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let calls = schedules.count * firesPerExpression
        let seconds = try await Measure.best(runs: runs) {
            for schedule in schedules {
                var cursor = start
                for _ in 0..<firesPerExpression {
                    guard let next = schedule.nextFire(after: cursor), next > cursor else {
                        throw BenchError("\(schedule.expression) stopped firing")
                    }
                    cursor = next
                }
            }
        }
        return Figure(name: "schedule_next_fire", value: seconds / Double(calls) * 1_000_000, unit: "us/call")
    }
}
