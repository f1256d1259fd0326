public import Foundation
public import SkillbookCore

/// Decides, as a pure function of the persisted state, wall-clock time and what is running, which
/// fires of one schedule entry start — the single decision function the daemon and
/// `schedule tick` share.
///
/// - Fires in `(watermark, now]` are due. The newest, when less than `liveTolerance` seconds old,
///   is *live* (the scheduler was awake); the others were *missed* and follow `catch_up`, within
///   `catch_up_window`: `none` starts none, `latest` the newest once (none if a live fire
///   supersedes it), `all` every one in order, the newest 1,000 at most.
/// - A live fire while a run of the entry still runs follows `overlap`: `skip` records it as
///   skipped, `queue` keeps one waiting (more are skipped), `allow` starts it. Missed fires of
///   `catch_up: all` start one after another unless `overlap: allow`; while such a backlog lasts,
///   live fires join its end (it never holds more than 1,000; the oldest go first).
/// - The first decision of an entry only sets the watermark (nothing missed before it existed);
///   an interval entry is anchored there and fires at once.
public struct FirePlanner: Sendable {
    public var playbook: String
    public var entryIndex: Int
    public var entry: ScheduleEntry
    public var machineZone: TimeZone
    /// Seconds a fire may be late and still count as live.
    public var liveTolerance: Double

    public init(
        playbook: String, entryIndex: Int, entry: ScheduleEntry, machineZone: TimeZone = .current,
        liveTolerance: Double = 60
    ) {
        self.playbook = playbook
        self.entryIndex = entryIndex
        self.entry = entry
        self.machineZone = machineZone
        self.liveTolerance = liveTolerance
    }

    func schedule(_ state: EntryState, now: Date) -> FireSchedule {
        FireSchedule(entry, anchor: state.anchor ?? now, machineZone: machineZone)
    }

    func fire(_ at: Date, catchUp: Bool = false) -> Fire {
        Fire(key: FireKey(playbook: playbook, entry: entryIndex, scheduledAt: at), isCatchUp: catchUp)
    }

    /// The next scheduled instant after the watermark (when the entry next needs a decision).
    public func nextFire(_ state: EntryState, now: Date) -> Date? {
        guard let watermark = state.watermark else { return now }
        return schedule(state, now: now).nextFire(after: watermark)
    }

    /// `running`: runs of this entry in progress.
    public func decide(_ state: EntryState, now: Date, running: Int) -> FireDecision {
        var state = state
        var due: [Date] = []
        var dropped = 0
        var missedBatches: [MissedFires] = []
        if let watermark = state.watermark {
            if now > watermark { (due, dropped, missedBatches) = dueFires(state, after: watermark, now: now) }
        } else if case .every = entry.trigger {
            state.anchor = now
            due = [now]
        }
        state.watermark = max(state.watermark ?? now, now)

        // Only the newest fire due can be live: fires due together were not decided at their time
        // (the scheduler was down or late, or `tick` runs less often than the interval), so the
        // older ones are missed whatever their age — not skipped as overlapping the newest.
        let newest = due.last.flatMap { now.timeIntervalSince($0) < liveTolerance ? $0 : nil }
        var live = newest.map { [fire($0)] } ?? []
        let missed = due.filter { $0 != newest }.map { fire($0, catchUp: true) }
        var kept: [Fire] = []
        switch entry.catchUp {
        case .none: break
        case .latest: if live.isEmpty, let newest = missed.last { kept = [newest] }
        case .all: kept = Array(missed.suffix(CatchUpPolicy.maximumFires))
        }
        dropped += missed.count - kept.count
        if missed.count > kept.count {
            let keptKeys = Set(kept.map(\.key))
            missedBatches += batches(missed.filter { !keptKeys.contains($0.key) }, reason: .catchUp)
        }

        var start: [Fire] = []
        var skipped: [Fire] = []
        if entry.overlap == .allow {
            start = state.backlog + kept + live
            state.backlog = []
            return FireDecision(start: start, skipped: [], dropped: dropped, state: state, missed: missedBatches)
        }
        state.backlog += kept
        if entry.catchUp == .all, !state.backlog.isEmpty {
            // A backlog is started in order: a live fire takes its turn at the end.
            state.backlog += live
            live = []
            let excess = state.backlog.count - CatchUpPolicy.maximumFires
            if excess > 0 {
                missedBatches += batches(Array(state.backlog.prefix(excess)), reason: .catchUp)
                state.backlog.removeFirst(excess)
                dropped += excess
            }
        }
        var busy = running > 0
        if !busy {
            if !state.backlog.isEmpty {
                start.append(state.backlog.removeFirst())
                busy = true
            } else if let waiting = state.waiting {
                start.append(waiting)
                state.waiting = nil
                busy = true
            }
        }
        for fire in live {
            if !busy {
                start.append(fire)
                busy = true
            } else if entry.overlap == .queue, state.waiting == nil {
                state.waiting = fire
            } else {
                skipped.append(fire)
            }
        }
        return FireDecision(start: start, skipped: skipped, dropped: dropped, state: state, missed: missedBatches)
    }

    /// Fires dropped for one reason as one batch (they are consecutive fires of the entry).
    private func batches(_ fires: [Fire], reason: MissReason) -> [MissedFires] {
        guard let first = fires.first, let last = fires.last else { return [] }
        return [
            MissedFires(
                playbook: playbook, entry: entryIndex, reason: reason, first: first.scheduledAt, last: last.scheduledAt,
                count: fires.count)
        ]
    }

    /// Whether a fire claimed by a process that died before starting its run is started now by
    /// the one that adopts it: it obeys `catch_up` as if it were due now, as `decide` does. Live
    /// (less than `liveTolerance` late, and no newer fire due by now) → yes; outside
    /// `catch_up_window` → no; otherwise `none` → no, `latest` → only when no newer fire is due,
    /// `all` → yes.
    public func adopts(_ fire: Fire, state: EntryState, now: Date) -> Bool {
        let late = now.timeIntervalSince(fire.key.scheduledAt)
        let superseded = schedule(state, now: now).nextFire(after: fire.key.scheduledAt).map { $0 <= now } ?? false
        if late < liveTolerance, !superseded { return true }
        if late > max(entry.catchUpWindow, liveTolerance) { return false }
        switch entry.catchUp {
        case .none: return false
        case .all: return true
        case .latest: return !superseded
        }
    }

    /// Fires in `(watermark, now]` within reach of the window, how many older ones were dropped,
    /// and those as batches (`window`; `catch_up` for an interval's beyond the newest 1,001).
    private func dueFires(_ state: EntryState, after watermark: Date, now: Date) -> ([Date], Int, [MissedFires]) {
        let reach = now.addingTimeInterval(-max(entry.catchUpWindow, liveTolerance))
        let from = max(watermark, reach)
        let schedule = schedule(state, now: now)
        var dropped = 0
        var batches: [MissedFires] = []
        func batch(_ reason: MissReason, _ first: Date, _ last: Date, _ count: Int) {
            guard count > 0 else { return }
            batches.append(MissedFires(playbook: playbook, entry: entryIndex, reason: reason, first: first, last: last, count: count))
        }
        if watermark < reach {
            switch schedule {
            case .interval(let interval):
                dropped = interval.count(after: watermark, through: reach)
                let last = interval.anchor.addingTimeInterval(
                    (reach.timeIntervalSince(interval.anchor) / interval.interval).rounded(.down) * interval.interval)
                batch(.window, interval.nextFire(after: watermark), last, dropped)
            case .cron(let cron):
                var cursor = watermark
                var first: Date?
                while dropped < 1_000_000, let next = cron.nextFire(after: cursor), next <= reach {
                    dropped += 1
                    if first == nil { first = next }
                    cursor = next
                }
                if let first { batch(.window, first, cursor, dropped) }
            }
        }
        var due: [Date] = []
        var cursor = from
        if case .interval(let interval) = schedule {
            // Only the newest fires can start; skip the rest arithmetically.
            let count = interval.count(after: from, through: now)
            let keep = CatchUpPolicy.maximumFires + 1
            if count > keep {
                dropped += count - keep
                let first = interval.nextFire(after: from)
                cursor = interval.anchor.addingTimeInterval(
                    ((now.timeIntervalSince(interval.anchor) / interval.interval).rounded(.down) - Double(keep)) * interval.interval)
                batch(.catchUp, first, cursor, count - keep)
            }
        }
        while let next = schedule.nextFire(after: cursor), next <= now {
            due.append(next)
            cursor = next
        }
        return (due, dropped, batches)
    }
}
