public import Foundation

/// `every: 15m`: fires at `anchor`, `anchor + interval`, `anchor + 2·interval`, … — real time,
/// untouched by DST. The anchor is the schedule's first fire (when it was first seen).
public struct IntervalSchedule: Sendable, Hashable {
    public var anchor: Date
    /// Seconds, at least 1.
    public var interval: Double

    public init(anchor: Date, interval: Double) {
        self.anchor = anchor
        self.interval = max(interval, 1)
    }

    /// The first fire strictly after `date`.
    public func nextFire(after date: Date) -> Date {
        let elapsed = date.timeIntervalSince(anchor)
        guard elapsed >= 0 else { return anchor }
        var steps = (elapsed / interval).rounded(.down) + 1
        // Guard against rounding putting the result at or before `date`.
        while anchor.addingTimeInterval(steps * interval) <= date { steps += 1 }
        return anchor.addingTimeInterval(steps * interval)
    }

    /// How many fires fall in `(start, end]`.
    public func count(after start: Date, through end: Date) -> Int {
        guard end >= anchor else { return 0 }
        let last = (end.timeIntervalSince(anchor) / interval).rounded(.down)
        let first = start < anchor ? 0 : (start.timeIntervalSince(anchor) / interval).rounded(.down) + 1
        return max(0, Int(last - first) + 1)
    }
}
