public import Foundation
import SkillbookCore

/// ISO 8601 times with the zone's offset (`2026-03-29T03:00:00+02:00`, `Z` at offset zero), and
/// the reverse: text with an offset is that instant, text without one a wall time of a zone.
public enum ISOTime {
    public static func format(_ date: Date, in zone: TimeZone) -> String {
        let instant = Int64(date.timeIntervalSince1970.rounded(.down))
        let offset = Int64(zone.secondsFromGMT(for: date))
        return CivilTime(wallSeconds: instant + offset).description + offsetText(offset)
    }

    static func offsetText(_ offset: Int64) -> String {
        guard offset != 0 else { return "Z" }
        let magnitude = abs(offset) / 60
        let hours = magnitude / 60
        let minutes = magnitude % 60
        return (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// `YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM]`; without an offset, a wall time in `zone` (a time a DST
    /// change skips is the end of the gap, a repeated one its first occurrence). `nil` if malformed.
    public static func parse(_ text: String, in zone: TimeZone) -> Date? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var offset: Int64?
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            offset = 0
            body = body.dropLast()
        } else if body.count > 16, let sign = body.dropFirst(16).lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let parts = body[body.index(after: sign)...].split(separator: ":")
            guard let first = parts.first, parts.count <= 2, let hours = Int64(first), hours <= 14, parts.allSatisfy({ $0.count == 2 || parts.count == 1 })
            else { return nil }
            let minutes = parts.count == 2 ? Int64(parts[1]) ?? 99 : 0
            guard minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (body[sign] == "-" ? -1 : 1)
            body = body[..<sign]
        }
        let halves = body.split(separator: body.contains("T") ? "T" : " ", maxSplits: 1)
        guard let datePart = halves.first else { return nil }
        let date = datePart.split(separator: "-").compactMap { Int($0) }
        guard date.count == 3, datePart.count == 10 else { return nil }
        var clock = [0, 0, 0]
        if halves.count == 2 {
            let fields = halves[1].split(separator: ":")
            guard (2...3).contains(fields.count), fields.allSatisfy({ $0.count == 2 }) else { return nil }
            for (index, field) in fields.enumerated() {
                guard let number = Int(field) else { return nil }
                clock[index] = number
            }
        }
        guard (1...12).contains(date[1]), (1...CivilTime.daysInMonth(year: date[0], month: date[1])).contains(date[2]),
            clock[0] < 24, clock[1] < 60, clock[2] < 60
        else { return nil }
        let wall = CivilTime(year: date[0], month: date[1], day: date[2], hour: clock[0], minute: clock[1], second: clock[2])
            .wallSeconds
        if let offset { return Date(timeIntervalSince1970: Double(wall - offset)) }
        switch ZoneMapping(zone: zone).instants(forWall: wall) {
        case .unique(let at), .gap(end: let at), .overlap(first: let at, second: _):
            return Date(timeIntervalSince1970: Double(at))
        }
    }
}
