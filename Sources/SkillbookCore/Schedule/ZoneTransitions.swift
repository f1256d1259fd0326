public import Foundation

/// A change of a zone's UTC offset (DST starting or ending, or the zone moving).
public struct ZoneTransition: Sendable, Hashable {
    /// The first instant with the new offset.
    public var instant: Date
    /// Seconds east of UTC before and from `instant` on.
    public var offsetBefore: Int
    public var offsetAfter: Int

    public init(instant: Date, offsetBefore: Int, offsetAfter: Int) {
        self.instant = instant
        self.offsetBefore = offsetBefore
        self.offsetAfter = offsetAfter
    }

    /// Clocks jumped forward: the local times in `[instant+before, instant+after)` never happen.
    public var isGap: Bool { offsetAfter > offsetBefore }

    /// The transitions of `zone` after `start` and up to `end`, in order.
    public static func between(_ start: Date, _ end: Date, in zone: TimeZone) -> [ZoneTransition] {
        var result: [ZoneTransition] = []
        var cursor = start
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= end, result.count < 1000 {
            let before = zone.secondsFromGMT(for: next.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: next)
            if before != after { result.append(ZoneTransition(instant: next, offsetBefore: before, offsetAfter: after)) }
            cursor = next
        }
        return result
    }
}
