public import Foundation
public import Observation
public import SkillbookCore

/// One step of a run as a view shows it.
public struct StepRow: Sendable, Identifiable, Hashable {
    public enum State: String, Sendable, Hashable {
        case pending
        case running
        case succeeded
        case failed
        case skipped
        /// It completed and a rollback undid it.
        case compensated
        /// A rollback needed to undo it and could not.
        case notCompensated = "not_compensated"
        /// Dry-run: an action that was only planned.
        case planned

        /// Whether nothing more will happen to it unless a rollback comes.
        public var isFinished: Bool { self != .pending && self != .running }
    }

    /// Where the step is: its id, after those of the sub-playbook steps running it.
    public var id: StepPath
    /// The skill it calls or the sub-playbook it runs; `nil` until known (a sub-playbook's step
    /// the playbook did not list, before it starts).
    public var target: StepTarget?
    public var state: State
    /// Calls (batches or iterations) done so far, for a step that makes several.
    public var completed: Int?
    public var total: Int?
    /// The attempt running or last run; 0 before the step starts.
    public var attempt: Int
    public var error: String?
    /// What kind of failure `error` is.
    public var failureKind: FailureKind?
    /// Why a rollback could not undo it.
    public var compensationError: String?
    /// The skill's own count inside the call running now (files moved so far), as it reports it.
    public var items: Int?
    public var itemsTotal: Int?
    /// Calls of this step a rollback has undone.
    public var undone: Int
    /// Seconds it took, once it is over.
    public var duration: Double?
    /// When it started, by the session's clock.
    public var started: Date?
    /// Its output (secrets masked) once it succeeded.
    public var output: Value?
    /// Dry-run: what it would do.
    public var plan: StepPlan?

    public init(id: StepPath, target: StepTarget?, state: State = .pending) {
        self.id = id
        self.target = target
        self.state = state
        self.attempt = 0
        self.undone = 0
    }

    /// How deep inside sub-playbooks the step is: 0 for the playbook's own steps.
    public var depth: Int { id.depth }

    /// The sub-playbook step that runs it, if any.
    public var parent: StepPath? { id.parent }

    /// Seconds it has taken so far: its duration when over, else the time since it started.
    public func elapsed(at now: Date) -> Double? {
        if let duration { return duration }
        guard let started, state == .running else { return nil }
        return max(0, now.timeIntervalSince(started))
    }
}

/// The state of one run for a user interface, built from its `RunEvent`s: the phase, a row per
/// step (seeded from the playbook, so steps show before they start), a log, the outputs and the
/// result. SwiftUI views bind to it directly; the CLI's live renderer draws from it.
///
/// Feed it with `consume(_:)` (the stream of `Engine.events`) or event by event with `apply(_:)`.
/// It drives as well as shows: give the engine its `confirmer`, and a view answers a pending
/// confirmation with `approve()` or `decline(reason:)`.
@Observable @MainActor
public final class RunSession {
    public enum Phase: Sendable, Hashable {
        /// No run has started.
        case idle
        /// The engine is working on `step` (the innermost one inside a sub-playbook), with its
        /// calls done so far when it makes several.
        case running(step: StepPath, completed: Int?, total: Int?)
        /// A step waits for the user's approval.
        case awaitingConfirmation(ConfirmationRequest)
        /// A step failed or the run was interrupted: completed steps are being undone (the engine
        /// said so with `rollbackStarted`). `step` is the one being compensated, `nil` before the
        /// first compensation starts.
        case rollingBack(step: StepPath?)
        case finished(RunStatus, interrupted: Bool)
    }

    public private(set) var phase: Phase = .idle
    public private(set) var steps: [StepRow]
    /// One entry per notable event (progress is not logged); each front end formats them.
    public private(set) var log: [RunLogEntry] = []
    /// The playbook's outputs, once it succeeded.
    public private(set) var outputs = ValueObject()
    public private(set) var result: RunResult?
    public private(set) var playbookName: String
    public private(set) var runID: String?
    /// Whether a dry-run planned a step.
    public private(set) var isDryRun = false

    /// Give this to the engine (`Engine(confirmer:)`) so that `approve()` and `decline(reason:)`
    /// answer the run's confirmations.
    @ObservationIgnored public let confirmer = SessionConfirmer()

    @ObservationIgnored private let clock: any WallClock
    @ObservationIgnored private var rowIndex: [StepPath: Int] = [:]
    /// The step whose confirmation this session answered and the engine has not yet reported.
    @ObservationIgnored private var answered: StepPath?

    /// A session for a run of `playbook`: a pending row per step. `clock` times the steps.
    public init(playbook: Playbook, clock: any WallClock = SystemClock()) {
        self.clock = clock
        playbookName = playbook.name
        steps = playbook.steps.map { StepRow(id: StepPath(step: $0.id), target: $0.target) }
        reindex()
    }

    /// A session that learns its steps from the events.
    public init(clock: any WallClock = SystemClock()) {
        self.clock = clock
        playbookName = ""
        steps = []
    }

    public func row(_ id: StepPath) -> StepRow? {
        rowIndex[id].map { steps[$0] }
    }

    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// The confirmation the run waits for, if any.
    public var pendingConfirmation: ConfirmationRequest? {
        if case .awaitingConfirmation(let request) = phase { return request }
        return nil
    }

    /// Approves the pending confirmation: the step runs.
    public func approve() {
        answer(.approved)
    }

    /// Declines the pending confirmation: the step fails as not approved.
    public func decline(reason: String = "declined") {
        answer(.declined(reason: reason))
    }

    /// Answers the pending confirmation through `confirmer`; does nothing when none is pending or
    /// it was already answered.
    public func answer(_ answer: ConfirmationAnswer) {
        guard let request = pendingConfirmation, answered != request.step else { return }
        answered = request.step
        confirmer.answer(request.step, answer)
    }

    /// Applies every event of the stream, returning when it finishes (after `run.finished`).
    public func consume(_ stream: AsyncStream<RunEvent>) async {
        for await event in stream {
            apply(event)
        }
    }

    public func apply(_ event: RunEvent) {
        switch event {
        case .runStarted(let runID, let playbook, _):
            self.runID = runID
            playbookName = playbook
            phase = .running(step: steps.first?.id ?? StepPath([]), completed: nil, total: nil)
            log.append(.started(runID: runID, playbook: playbook))

        case .stepStarted(let step, let target, let attempt, _):
            let started = clock.now()
            update(step, target: target) { row in
                row.state = .running
                row.attempt = attempt
                row.started = started
                row.duration = nil
                row.error = nil
            }
            phase = .running(step: step, completed: nil, total: nil)
            log.append(.stepStarted(step, target))

        case .stepProgress(let step, let completed, let total, .skill):
            update(step) { row in
                row.items = completed
                row.itemsTotal = total
            }

        case .stepProgress(let step, let completed, let total, _):
            update(step) { row in
                // Calls of one step finish concurrently: a count can arrive after a higher one.
                if row.total == total, let done = row.completed, done >= completed { return }
                row.completed = completed
                row.total = total
            }
            if case .running = phase, let current = self.row(step) {
                phase = .running(step: step, completed: current.completed, total: current.total)
            }

        case .stepSkipped(let step, let reason):
            update(step) { $0.state = .skipped }
            log.append(.skipped(step, reason: reason))

        case .stepRetrying(let step, let attempt, let error, let delay):
            update(step) { $0.attempt = max($0.attempt, attempt + 1) }
            log.append(.retrying(step, attempt: attempt, error: error, delay: delay))

        case .stepSucceeded(let step, let output, let duration):
            update(step) { row in
                // A dry-run "completes" planned actions without running them.
                if row.state != .planned { row.state = .succeeded }
                row.duration = duration
                row.output = output
                if let total = row.total { row.completed = total }
            }
            log.append(.succeeded(step, duration: duration))

        case .stepFailed(let step, let error, let kind, let willContinue):
            let time = clock.now()
            update(step) { row in
                row.state = .failed
                row.error = error
                row.failureKind = kind
                row.duration = row.started.map { max(0, time.timeIntervalSince($0)) } ?? 0
            }
            log.append(.failed(step, error: error, kind: kind, willContinue: willContinue))

        case .stepWaiting(let step, let wait):
            log.append(.waiting(step, wait))

        case .confirmationRequested(let request):
            phase = .awaitingConfirmation(request)
            log.append(.confirmationRequested(request))

        case .confirmationAnswered(let step, let answer):
            if answered == step { answered = nil }
            if answer.isApproved {
                let current = self.row(step)
                phase = .running(step: step, completed: current?.completed, total: current?.total)
            }
            log.append(.confirmationAnswered(step, answer))

        case .stepPlanned(let plan):
            isDryRun = true
            update(plan.step, target: .skill(plan.skill)) { row in
                row.plan = plan
                if !plan.ran { row.state = .planned }
            }
            if case .running = phase { phase = .running(step: plan.step, completed: nil, total: nil) }
            log.append(.planned(plan))

        case .rollbackStarted:
            phase = .rollingBack(step: nil)
            log.append(.rollbackStarted)

        case .compensationStarted(let step):
            phase = .rollingBack(step: step)
            log.append(.undoing(step))

        case .compensationSucceeded(let step):
            for id in [step] + step.ancestors {
                update(id) { row in
                    if id == step { row.undone += 1 }
                    if row.state != .notCompensated { row.state = .compensated }
                }
            }
            log.append(.undone(step))

        case .compensationFailed(let step, let error):
            for id in [step] + step.ancestors {
                update(id) { row in
                    row.state = .notCompensated
                    let inner = StepPath(Array(step.components.dropFirst(id.components.count)))
                    row.compensationError = row.compensationError ?? (id == step ? error : "\(inner): \(error)")
                }
            }
            phase = .rollingBack(step: step)
            log.append(.notUndone(step, error: error))

        case .warning(let warning):
            log.append(.warning(warning))

        case .runWaiting(let request):
            log.append(.waitingForApproval(request))

        case .runFinished(let result):
            finish(result)
        }
    }

    private func finish(_ result: RunResult) {
        self.result = result
        outputs = result.outputs
        // The engine's reports are the final word on the playbook's own steps.
        for report in result.steps {
            update(StepPath(step: report.id), target: StepTarget(parsing: report.skill)) { row in
                switch report.status {
                case .notRun: if row.state != .planned { row.state = .pending }
                case .skipped: row.state = .skipped
                case .succeeded: if row.state != .planned { row.state = .succeeded }
                case .failed: row.state = .failed
                case .compensated: row.state = .compensated
                case .notCompensated, .uncertain: row.state = .notCompensated
                case .planned: row.state = .planned
                }
                if report.attempts > 0 { row.attempt = max(row.attempt, report.attempts) }
                if let error = report.error { row.error = error }
                if let kind = report.failureKind { row.failureKind = kind }
                if let error = report.compensationError { row.compensationError = error }
                if report.status != .notRun && report.status != .skipped, row.duration == nil { row.duration = report.duration }
            }
        }
        phase = .finished(result.status, interrupted: result.interrupted)
        log.append(
            .finished(
                playbook: result.playbook, status: result.status, seconds: result.finished.timeIntervalSince(result.started),
                interrupted: result.interrupted))
        if let error = result.error { log.append(.runError(error)) }
    }

    // MARK: Rows

    /// Changes the row of `id`, adding it first when the playbook did not list it (sub-playbook steps).
    private func update(_ id: StepPath, target: StepTarget? = nil, _ change: (inout StepRow) -> Void) {
        let index = rowIndex[id] ?? insertRow(id, target: target)
        if let target, steps[index].target == nil { steps[index].target = target }
        change(&steps[index])
    }

    /// A sub-playbook's steps go after the step running them and its earlier children.
    private func insertRow(_ id: StepPath, target: StepTarget?) -> Int {
        var position = steps.endIndex
        if let parent = id.parent, let parentIndex = rowIndex[parent] {
            position = parentIndex + 1
            while position < steps.endIndex, steps[position].id.isWithin(parent) { position += 1 }
        }
        steps.insert(StepRow(id: id, target: target), at: position)
        reindex()
        return position
    }

    private func reindex() {
        rowIndex = Dictionary(steps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
