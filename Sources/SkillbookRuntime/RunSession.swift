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

    /// The step id; `parent/child` for the steps of a sub-playbook.
    public var id: String
    /// The skill, or `playbook:NAME` for a sub-playbook step.
    public var skill: String
    public var state: State
    /// Calls (batches or iterations) done so far, for a step that makes several.
    public var completed: Int?
    public var total: Int?
    /// The attempt running or last run; 0 before the step starts.
    public var attempt: Int
    public var error: String?
    /// Why a rollback could not undo it.
    public var compensationError: String?
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

    public init(id: String, skill: String, state: State = .pending) {
        self.id = id
        self.skill = skill
        self.state = state
        self.attempt = 0
        self.undone = 0
    }

    /// How deep inside sub-playbooks the step is: 0 for the playbook's own steps.
    public var depth: Int { id.reduce(0) { $1 == "/" ? $0 + 1 : $0 } }

    /// The sub-playbook step that runs it, if any.
    public var parent: String? {
        id.lastIndex(of: "/").map { String(id[..<$0]) }
    }

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
@Observable @MainActor
public final class RunSession {
    public enum Phase: Sendable, Hashable {
        /// No run has started.
        case idle
        /// The engine is working on `step` (the innermost one inside a sub-playbook), with its
        /// calls done so far when it makes several.
        case running(step: String, completed: Int?, total: Int?)
        /// A step waits for the user's approval.
        case awaitingConfirmation(ConfirmationRequest)
        /// A step failed or the run was interrupted: completed steps are being undone.
        /// `step` is the one being compensated, `nil` before the first compensation starts.
        case rollingBack(step: String?)
        case finished(RunStatus, interrupted: Bool)
    }

    public private(set) var phase: Phase = .idle
    public private(set) var steps: [StepRow]
    /// One line per notable event (progress is not logged), for people.
    public private(set) var log: [String] = []
    /// The playbook's outputs, once it succeeded.
    public private(set) var outputs = ValueObject()
    public private(set) var result: RunResult?
    public private(set) var playbookName: String
    public private(set) var runID: String?
    /// Whether a dry-run planned a step.
    public private(set) var isDryRun = false

    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private var rowIndex: [String: Int] = [:]
    /// The failure policy of each top-level step, to know when a failure starts a rollback.
    @ObservationIgnored private var policies: [String: FailurePolicy] = [:]
    @ObservationIgnored private var playbookPolicy: FailurePolicy = .rollback

    /// A session for a run of `playbook`: a pending row per step. `now` is the clock for elapsed times.
    public init(playbook: Playbook, now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        playbookName = playbook.name
        playbookPolicy = playbook.onFailure
        steps = playbook.steps.map { StepRow(id: $0.id, skill: $0.playbook.map { "playbook:\($0)" } ?? $0.skill) }
        for step in playbook.steps { policies[step.id] = step.onFailure ?? playbook.onFailure }
        reindex()
    }

    /// A session that learns its steps from the events.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        playbookName = ""
        steps = []
    }

    public func row(_ id: String) -> StepRow? {
        rowIndex[id].map { steps[$0] }
    }

    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
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
            phase = .running(step: steps.first?.id ?? "", completed: nil, total: nil)
            log.append("▶ \(playbook) (run \(runID))")

        case .stepStarted(let step, let skill, let attempt, _):
            let started = now()
            update(step, skill: skill) { row in
                row.state = .running
                row.attempt = attempt
                row.started = started
                row.duration = nil
                row.error = nil
            }
            phase = .running(step: step, completed: nil, total: nil)
            log.append("… \(step) (\(skill))")

        case .stepProgress(let step, let completed, let total):
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
            log.append("- \(step) skipped: \(reason)")

        case .stepRetrying(let step, let attempt, let error, let delay):
            update(step) { $0.attempt = max($0.attempt, attempt + 1) }
            log.append("↻ \(step) attempt \(attempt) failed: \(error); retrying in \(JSONText.number(delay))s")

        case .stepSucceeded(let step, let output, let duration):
            update(step) { row in
                // A dry-run "completes" planned actions without running them.
                if row.state != .planned { row.state = .succeeded }
                row.duration = duration
                row.output = output
                if let total = row.total { row.completed = total }
            }
            log.append("✓ \(step) \(String(format: "%.2fs", duration))")

        case .stepFailed(let step, let error, let willContinue):
            let time = now()
            update(step) { row in
                row.state = .failed
                row.error = error
                row.duration = row.started.map { max(0, time.timeIntervalSince($0)) } ?? 0
            }
            log.append("✗ \(step): \(error)\(willContinue ? " (continuing)" : "")")
            if !willContinue, let policy = policies[step] ?? (step.contains("/") ? nil : playbookPolicy) {
                // Not continuing past a `continue` step means the run was interrupted: the playbook's policy applies.
                if (policy == .continue ? playbookPolicy : policy) == .rollback { phase = .rollingBack(step: nil) }
            }

        case .stepWaiting(let step, let wait):
            log.append("⧗ \(step): \(wait)")

        case .confirmationRequested(let request):
            phase = .awaitingConfirmation(request)
            log.append("? \(request.step) (\(request.skill)) asks for confirmation")

        case .confirmationAnswered(let step, let approved):
            if approved {
                let current = self.row(step)
                phase = .running(step: step, completed: current?.completed, total: current?.total)
            }
            log.append("\(approved ? "✓ approved" : "✗ not approved"): \(step)")

        case .stepPlanned(let plan):
            isDryRun = true
            update(plan.step, skill: plan.skill) { row in
                row.plan = plan
                if !plan.ran { row.state = .planned }
            }
            if case .running = phase { phase = .running(step: plan.step, completed: nil, total: nil) }
            log.append("○ \(plan.step): \(plan.skill) \(plan.ran ? "ran (read-only)" : plan.kind == .action ? "would run" : "not run")")

        case .compensationStarted(let step):
            phase = .rollingBack(step: step)
            log.append("↶ undoing \(step)")

        case .compensationSucceeded(let step):
            for id in [step] + ancestors(of: step) {
                update(id) { row in
                    if id == step { row.undone += 1 }
                    if row.state != .notCompensated { row.state = .compensated }
                }
            }
            log.append("↶ \(step) undone")

        case .compensationFailed(let step, let error):
            for id in [step] + ancestors(of: step) {
                update(id) { row in
                    row.state = .notCompensated
                    row.compensationError = row.compensationError ?? (id == step ? error : "\(step.dropFirst(id.count + 1)): \(error)")
                }
            }
            phase = .rollingBack(step: step)
            log.append("! \(step) could not be undone: \(error)")

        case .runFinished(let result):
            finish(result)
        }
    }

    private func finish(_ result: RunResult) {
        self.result = result
        outputs = result.outputs
        // The engine's reports are the final word on the playbook's own steps.
        for report in result.steps {
            update(report.id, skill: report.skill) { row in
                switch report.status {
                case .notRun: if row.state != .planned { row.state = .pending }
                case .skipped: row.state = .skipped
                case .succeeded: if row.state != .planned { row.state = .succeeded }
                case .failed: row.state = .failed
                case .compensated: row.state = .compensated
                case .notCompensated: row.state = .notCompensated
                }
                if report.attempts > 0 { row.attempt = max(row.attempt, report.attempts) }
                if let error = report.error { row.error = error }
                if let error = report.compensationError { row.compensationError = error }
                if report.status != .notRun && report.status != .skipped, row.duration == nil { row.duration = report.duration }
            }
        }
        phase = .finished(result.status, interrupted: result.interrupted)
        let seconds = String(format: "%.2fs", result.finished.timeIntervalSince(result.started))
        log.append("\(result.playbook) \(result.status.rawValue) in \(seconds)\(result.interrupted ? " (interrupted)" : "")")
        if let error = result.error { log.append(error) }
    }

    // MARK: Rows

    private func ancestors(of id: String) -> [String] {
        var result: [String] = []
        var current = id
        while let slash = current.lastIndex(of: "/") {
            current = String(current[..<slash])
            result.append(current)
        }
        return result
    }

    /// Changes the row of `id`, adding it first when the playbook did not list it (sub-playbook steps).
    private func update(_ id: String, skill: String? = nil, _ change: (inout StepRow) -> Void) {
        let index = rowIndex[id] ?? insertRow(id, skill: skill ?? "")
        if let skill, steps[index].skill.isEmpty { steps[index].skill = skill }
        change(&steps[index])
    }

    /// A sub-playbook's steps go after the step running them and its earlier children.
    private func insertRow(_ id: String, skill: String) -> Int {
        var position = steps.endIndex
        if let slash = id.lastIndex(of: "/") {
            let parent = String(id[..<slash])
            if let parentIndex = rowIndex[parent] {
                position = parentIndex + 1
                while position < steps.endIndex, steps[position].id.hasPrefix(parent + "/") { position += 1 }
            }
        }
        steps.insert(StepRow(id: id, skill: skill), at: position)
        reindex()
        return position
    }

    private func reindex() {
        rowIndex = Dictionary(steps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
