public import Foundation
import SkillbookCore

/// Maps wall-clock times of one zone to instants, the way a DST change makes them: one instant,
/// none (the clocks jumped over it: a gap), or two (the clocks were set back: an overlap).
///
/// Instants and wall times are whole seconds (wall seconds as `CivilTime` counts them).
public struct ZoneMapping: Sendable {
    public enum Instants: Sendable, Hashable {
        case unique(Int64)
        /// The wall time does not exist; `end` is the first instant after the gap.
        case gap(end: Int64)
        /// The wall time happens twice: first at `first`, then at `second`.
        case overlap(first: Int64, second: Int64)
    }

    public let zone: TimeZone

    public init(zone: TimeZone) {
        self.zone = zone
    }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }

    /// The wall time of `instant`.
    public func wall(at instant: Int64) -> Int64 { instant + offset(at: instant) }

    public func instants(forWall wall: Int64) -> Instants {
        // Offsets a day either side cover every zone's largest jump (24 hours).
        let early = offset(at: wall - 86_400)
        let late = offset(at: wall + 86_400)
        var found: [Int64] = []
        for candidate in Set([early, late, offset(at: wall - early), offset(at: wall - late)]) {
            let instant = wall - candidate
            if offset(at: instant) == candidate { found.append(instant) }
        }
        found.sort()
        if let first = found.first, let last = found.last {
            return first == last ? .unique(first) : .overlap(first: first, second: last)
        }
        // A gap: the offset rises from `low` to `high` at an instant between wall-high and wall-low.
        let low = min(early, late)
        let high = max(early, late)
        var before = wall - high
        var after = wall - low
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if offset(at: middle) == high { after = middle } else { before = middle }
        }
        return .gap(end: after)
    }
}
