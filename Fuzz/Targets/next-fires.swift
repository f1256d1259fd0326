// fuzz-modules: Core Schedule
import Foundation
import SkillbookCore
import SkillbookSchedule

/// Next fires against a minute-by-minute scan (issue 28): the first line is a cron expression, the
/// bytes after it pick one of four zones (UTC, Europe/Berlin, America/New_York with one-hour DST
/// changes, Australia/Lord_Howe with a half-hour one) and a start up to 64 hours before one of the
/// 2026 DST changes. `CronSchedule.nextFire` must give exactly the fires an independent scan of
/// every real minute of the next 72 hours finds by Debian cron's rules: a wall time that exists
/// once fires once; in an overlap a fixed-time schedule fires the first copy only, any other both;
/// in a gap a fixed-time schedule fires the skipped times once, at the first instant after the gap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNextFires(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    let (line, rest) = FuzzNextFires.split(text)
    guard case .success(let expression) = CronParser.parse(line) else { return 0 }
    let seed = rest.utf8.reduce(UInt64(count)) { $0 &* 31 &+ UInt64($1) }
    let (zone, change) = FuzzNextFires.cases[Int(seed % UInt64(FuzzNextFires.cases.count))]
    let start = change - Int64((seed / 8) % (64 * 60)) * 60 - Int64((seed / 100_000) % 60)
    let end = start + FuzzNextFires.window
    let expected = FuzzNextFires.scan(expression, zone: zone, after: start, through: end)
    let schedule = CronSchedule(expression, zone: zone)
    var found: [Int64] = []
    var cursor = start
    while let next = schedule.nextFire(after: cursor), next <= end {
        check(next > cursor, "'\(line)' in \(zone.identifier): \(next) is not after \(cursor)")
        found.append(next)
        cursor = next
    }
    check(found == expected, "'\(line)' in \(zone.identifier) after \(start): nextFire gives \(found), the scan \(expected)")
    return 0
}

enum FuzzNextFires {
    /// 72 hours: the 64 hours a start can be before a change, and 8 after it.
    static let window: Int64 = 72 * 3600

    /// (zone, an instant of a 2026 DST change in it; UTC's is an ordinary day).
    static let cases: [(TimeZone, Int64)] = [
        ("UTC", 1_774_749_600), ("Europe/Berlin", 1_774_746_000), ("Europe/Berlin", 1_792_890_000),
        ("America/New_York", 1_772_953_200), ("America/New_York", 1_793_512_800),
        ("Australia/Lord_Howe", 1_775_314_800), ("Australia/Lord_Howe", 1_791_041_400),
    ].map { (TimeZone(identifier: $0.0)!, $0.1) }

    static func split(_ text: String) -> (String, String) {
        guard let newline = text.firstIndex(of: "\n") else { return (text, "") }
        return (String(text[..<newline]), String(text[text.index(after: newline)...]))
    }

    /// A wall time's fields through Foundation's own calendar (not the scheduler's `CivilTime`).
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// A wall hour's month, day, hour and weekday through Foundation's calendar, asked once per
    /// hour of a scan (the minute is the wall time's own: a UTC wall has no leap seconds).
    struct WallHours {
        private var hours: [Int64: (month: Int, day: Int, hour: Int, weekday: Int)] = [:]

        mutating func matches(_ expression: CronExpression, wall: Int64) -> Bool {
            let start = wall - wall.modulo(3600)
            let fields: (month: Int, day: Int, hour: Int, weekday: Int)
            if let known = hours[start] {
                fields = known
            } else {
                let parts = calendar.dateComponents([.month, .day, .hour, .weekday], from: Date(timeIntervalSince1970: Double(start)))
                guard let month = parts.month, let day = parts.day, let hour = parts.hour, let weekday = parts.weekday
                else { return false }
                fields = (month, day, hour, weekday)
                hours[start] = fields
            }
            let minute = Int(wall.modulo(3600) / 60)
            return expression.minutes & (1 << UInt64(minute)) != 0 && expression.hours & (1 << UInt32(fields.hour)) != 0
                && expression.matchesDay(day: fields.day, month: fields.month, weekday: fields.weekday - 1)
        }
    }

    /// Every DST change of these zones (in 2026) is at a whole or half hour of UTC, so a zone's
    /// offset is asked once per half hour of a scan; checked for every case at start-up.
    static let halfHour: Int64 = 1800
    static let changesAreOnHalfHours: Bool = {
        for (zone, change) in cases.dropFirst() {  // the first, UTC's, is an ordinary day
            let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(change - 1)))
            let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(change)))
            check(change.modulo(halfHour) == 0 && before != after, "\(zone.identifier)'s change at \(change) is not on a half hour")
        }
        return true
    }()

    /// Every real minute in (start, end], by Debian cron's rules.
    static func scan(_ expression: CronExpression, zone: TimeZone, after start: Int64, through end: Int64) -> [Int64] {
        check(changesAreOnHalfHours, "the zones' changes")
        var offsets: [Int64: Int64] = [:]
        func offset(_ instant: Int64) -> Int64 {
            let slot = instant - instant.modulo(halfHour)
            if let known = offsets[slot] { return known }
            let seconds = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(slot))))
            offsets[slot] = seconds
            return seconds
        }
        var walls = WallHours()
        func matches(_ expression: CronExpression, wall: Int64) -> Bool { walls.matches(expression, wall: wall) }
        var fires: [Int64] = []
        var minute = start - start.modulo(60) + 60
        var previousOffset = offset(minute - 60)
        while minute <= end {
            let current = offset(minute)
            let wall = minute + current
            if current > previousOffset, expression.hasFixedTime {
                // The clocks jumped over the walls (minute - 60 + previousOffset, wall): any that
                // matches fires once, now.
                var skipped = minute + previousOffset
                while skipped < wall {
                    if matches(expression, wall: skipped) {
                        fires.append(minute)
                        break
                    }
                    skipped += 60
                }
            }
            if fires.last != minute, matches(expression, wall: wall) {
                // A second copy of a wall time: an earlier instant had the same wall.
                var earlier = false
                for back: Int64 in 1...6 {
                    let other = offset(minute - back * 1800)
                    if other != current, wall - other < minute, offset(wall - other) == other { earlier = true }
                }
                if !earlier || !expression.hasFixedTime { fires.append(minute) }
            }
            previousOffset = current
            minute += 60
        }
        return fires
    }
}

extension Int64 {
    func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
