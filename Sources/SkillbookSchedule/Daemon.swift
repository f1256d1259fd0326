public import Foundation
public import SkillbookCore

/// Fires scheduled playbooks: sleeps until the next fire (never longer than `maximumSleep`, so a
/// suspend or a clock jump is noticed within a minute), then lets `FirePlanner` decide for every
/// entry and starts each fire it may claim in the ledger — so a fire starts at most once however
/// many daemons or `schedule tick`s share the ledger. A run that ends wakes it at once, to start a
/// queued fire or the next of a catch-up backlog.
public actor Daemon {
    /// Wall-clock time; re-read after every wake-up, as it may jump (suspend, a time sync).
    public let clock: any WallClock
    public let ledger: any FireLedger
    public let starter: any FireStarter
    public let machineZone: TimeZone
    /// The longest single sleep, in seconds.
    public let maximumSleep: Double
    /// One plain line per event (`fire started sync#0@…`), for stderr.
    public let log: @Sendable (String) -> Void
    /// Each fire's outcome, with how many fires it counts (for metrics).
    public let onOutcome: @Sendable (_ playbook: String, _ outcome: FireOutcome, _ count: Int) -> Void

    private var playbooks: [ScheduledPlaybook]
    private var running: [String: Int] = [:]
    private var runs: [Int: Task<Void, Never>] = [:]
    private var nextRunID = 0
    private let wake = WakeSignal()

    public init(
        playbooks: [ScheduledPlaybook], clock: any WallClock, ledger: any FireLedger, starter: any FireStarter,
        machineZone: TimeZone = .current, maximumSleep: Double = 60, log: @escaping @Sendable (String) -> Void = { _ in },
        onOutcome: @escaping @Sendable (_ playbook: String, _ outcome: FireOutcome, _ count: Int) -> Void = { _, _, _ in }
    ) {
        self.onOutcome = onOutcome
        self.playbooks = playbooks
        self.clock = clock
        self.ledger = ledger
        self.starter = starter
        self.machineZone = machineZone
        self.maximumSleep = maximumSleep
        self.log = log
    }

    /// Replaces the schedules (a file changed); running runs go on.
    public func reload(_ playbooks: [ScheduledPlaybook]) {
        self.playbooks = playbooks
        wake.signal()
    }

    /// Fires until the task is cancelled (or the clock throws); running runs are left to `waitForRuns`.
    /// Each sleep lasts at most `maximumSleep`, whatever the clock does in between.
    public func run() async throws {
        while true {
            try Task.checkCancellation()
            let now = try await tick()
            var deadline = now.addingTimeInterval(maximumSleep)
            for (playbook, index, entry) in entries {
                let planner = planner(playbook, index, entry)
                let state = try await ledger.state(playbook: playbook, entry: index)
                if let next = planner.nextFire(state, now: now), next < deadline { deadline = max(next, now) }
            }
            try await sleep(until: deadline)
        }
    }

    /// One round of decisions for every entry at the clock's now (also what `schedule tick` does).
    /// Returns the instant it decided at.
    @discardableResult
    public func tick() async throws -> Date {
        let now = clock.now()
        for (playbook, index, entry) in entries {
            let planner = planner(playbook, index, entry)
            let id = "\(playbook)#\(index)"
            let state = try await ledger.state(playbook: playbook, entry: index)
            let decision = planner.decide(state, now: now, running: running[id, default: 0])
            // A stopping daemon claims nothing: a fire it claimed but never started would be
            // adopted late by the next one.
            try Task.checkCancellation()
            let claimed = try await ledger.commit(decision, playbook: playbook, entry: index)
            for fire in decision.skipped {
                log("fire skipped \(fire.key) (the previous run still runs)")
                onOutcome(playbook, .skipped, 1)
            }
            for batch in decision.missed {
                log(
                    "fires dropped \(id) count=\(batch.count) reason=\(batch.reason.rawValue) (catch_up \(entry.catchUp.rawValue), window \(Int(entry.catchUpWindow))s)")
                onOutcome(playbook, .dropped, batch.count)
            }
            let missed = decision.missed + decision.skipped.map(MissedFires.init(skipped:))
            if !missed.isEmpty { await starter.missed(missed) }
            for fire in decision.start where !claimed.contains(fire) {
                log("fire taken \(fire.key) (already started elsewhere)")
            }
            for fire in claimed { start(fire, id: id, inputs: entry.inputs) }
        }
        return now
    }

    /// Starts fires already claimed (taken over from a process that died before their run began).
    /// Each obeys its entry's `catch_up` and window (`FirePlanner.adopts`): a stale one is dropped.
    public func startClaimed(_ fires: [Fire]) async {
        for fire in fires {
            let entry = playbooks.first { $0.name == fire.key.playbook }?.entries[safe: fire.key.entry]
            if let entry {
                let planner = planner(fire.key.playbook, fire.key.entry, entry)
                let state = (try? await ledger.state(playbook: fire.key.playbook, entry: fire.key.entry)) ?? EntryState()
                let now = clock.now()
                guard planner.adopts(fire, state: state, now: now) else {
                    let late = Int(now.timeIntervalSince(fire.key.scheduledAt).rounded())
                    log("fire dropped \(fire.key) (its claimer died before the run started; \(late)s late, catch_up \(entry.catchUp.rawValue))")
                    onOutcome(fire.key.playbook, .dropped, 1)
                    continue
                }
            }
            log("fire adopted \(fire.key) (its claimer died before the run started)")
            start(fire, id: "\(fire.key.playbook)#\(fire.key.entry)", inputs: entry?.inputs ?? [])
        }
    }

    /// Runs `work` (a run the daemon continues after its approval) as one of its runs: `waitForRuns`
    /// waits for it and `cancelRuns` cancels it; it counts for no entry's `overlap`.
    public func track(_ work: @escaping @Sendable () async -> Void) {
        let runID = nextRunID
        nextRunID += 1
        runs[runID] = Task {
            await work()
            self.untrack(runID)
        }
    }

    private func untrack(_ runID: Int) {
        runs[runID] = nil
    }

    /// Waits until every run started so far has ended.
    public func waitForRuns() async {
        while let (id, task) = runs.first {
            await task.value
            runs[id] = nil
        }
    }

    /// Cancels every run in progress (each rolls back what it completed); `waitForRuns` then
    /// returns when they have ended.
    public func cancelRuns() {
        for task in runs.values { task.cancel() }
    }

    /// Fires started since this daemon was made.
    public private(set) var startedCount = 0

    /// Runs in progress.
    public var runningCount: Int { running.values.reduce(0, +) }

    private var entries: [(String, Int, ScheduleEntry)] {
        playbooks.flatMap { playbook in playbook.entries.enumerated().map { (playbook.name, $0.offset, $0.element) } }
    }

    private func planner(_ playbook: String, _ index: Int, _ entry: ScheduleEntry) -> FirePlanner {
        FirePlanner(playbook: playbook, entryIndex: index, entry: entry, machineZone: machineZone)
    }

    private func start(_ fire: Fire, id: String, inputs: [ScheduleInput]) {
        running[id, default: 0] += 1
        startedCount += 1
        let late = clock.now().timeIntervalSince(fire.scheduledAt)
        log("fire started \(fire.key)\(fire.isCatchUp ? " catch-up" : "") late=\(Int((late * 1000).rounded()))ms")
        onOutcome(fire.key.playbook, fire.isCatchUp ? .late : .onTime, 1)
        let runID = nextRunID
        nextRunID += 1
        let starter = self.starter
        runs[runID] = Task {
            await starter.run(fire, inputs: inputs)
            self.finished(id: id, runID: runID)
        }
    }

    private func finished(id: String, runID: Int) {
        running[id, default: 1] -= 1
        runs[runID] = nil
        wake.signal()
    }

    /// Sleeps until `deadline`, or until a run ends or the schedules change.
    private func sleep(until deadline: Date) async throws {
        let clock = self.clock
        let wake = self.wake
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await clock.sleep(until: deadline) }
            group.addTask { await wake.wait() }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
