import Synchronization
public import Foundation
public import SkillbookCore

/// Runs checked playbooks: `when`, parameter mapping, run-time validation, batching driven by
/// `maxItems`, `foreach`, sub-playbooks, retries, timeouts, confirmation, resource locks,
/// `on_failure`, and saga-style rollback of every completed call in reverse order.
public struct Engine: Sendable {
    public let registry: SkillRegistry
    public let environment: EngineEnvironment
    public let confirmer: any Confirmer
    public let resources: any ResourceLocking
    /// The journal, when runs are recorded.
    public let recorder: (any RunRecorder)?
    /// How long a text the journal keeps whole (see `JournalValueLimit`).
    public let journalValueLimit: JournalValueLimit

    /// Attempts per compensation before giving up on it.
    public static let compensationAttempts = 3

    public init(
        registry: SkillRegistry, environment: EngineEnvironment = .live, confirmer: any Confirmer = RefusingConfirmer(),
        resources: any ResourceLocking = ResourceLocks.shared, recorder: (any RunRecorder)? = nil,
        journalValueLimit: JournalValueLimit = .standard
    ) {
        self.journalValueLimit = journalValueLimit
        self.registry = registry
        self.environment = environment
        self.confirmer = confirmer
        self.resources = resources
        self.recorder = recorder
    }

    /// How a run is started: dry or real, from where, and whether it continues an earlier one.
    public struct RunOptions: Sendable {
        public var dryRun: Bool
        /// `cli`, `schedule` or `agent`, for the journal.
        public var trigger: RunTrigger
        /// The playbook's source text, for the journal (so a resume can detect a changed file).
        public var source: String
        /// Continue this earlier run instead of starting a new one.
        public var resume: (runID: String, plan: ResumePlan)?
        /// The fire's scheduled instant, for a run with trigger `schedule`.
        public var scheduledAt: Date?
        /// The workspace folder the playbook belongs to, as `run.workspace` (empty when the front end does not say).
        public var workspace: String
        /// The values of the secrets `secret('NAME')` reads, from their providers; never recorded.
        public var secrets: [String: String] = [:]
        /// The result's step reports carry each step's output (`StepReport.output`). A caller that
        /// reads only the run's outputs says `false`: a step's output is then let go of once no
        /// later step reads it, rather than held to the end for the report (a large value is not
        /// held twice). The events, the journal and the run's outputs are the same either way.
        public var keepsStepOutputs = true

        public init(
            dryRun: Bool = false, trigger: RunTrigger = .cli, source: String = "",
            resume: (runID: String, plan: ResumePlan)? = nil, scheduledAt: Date? = nil, workspace: String = "",
            secrets: [String: String] = [:], keepsStepOutputs: Bool = true
        ) {
            self.keepsStepOutputs = keepsStepOutputs
            self.secrets = secrets
            self.workspace = workspace
            self.scheduledAt = scheduledAt
            self.dryRun = dryRun
            self.trigger = trigger
            self.source = source
            self.resume = resume
        }
    }

    /// Runs a playbook whose inputs are already resolved (see `InputResolver`).
    ///
    /// Never throws: every failure, timeout and interruption ends in a `RunResult`. Cancelling
    /// the calling task interrupts the run; completed calls are then compensated as on failure.
    /// With `dryRun`, query skills run for real and actions are only planned.
    public func run(
        _ playbook: Playbook, inputs: ValueObject, dryRun: Bool = false, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        await run(playbook, inputs: inputs, options: RunOptions(dryRun: dryRun), onEvent: onEvent)
    }

    public func run(
        _ playbook: Playbook, inputs: ValueObject, options: RunOptions, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        // A dry run is recorded nowhere, so it has no id (an empty one) to show.
        let runID = options.dryRun ? "" : options.resume?.runID ?? environment.makeRunID()
        let started = environment.now()
        let state = RunState(
            reports: playbook.steps.map { StepReport(id: $0.id, skill: $0.playbook.map { "playbook:\($0)" } ?? $0.skill) },
            workspace: options.workspace, secretValues: options.secrets)
        for input in playbook.inputs {
            if let value = inputs[input.name] { state.addSecrets(in: value, schema: input.schema) }
        }
        let execution = RunExecution(
            engine: self, playbook: playbook, inputs: inputs, runID: runID, started: started,
            deadline: playbook.timeout.map { started.addingTimeInterval($0) }, dryRun: options.dryRun, onEvent: onEvent,
            state: state, resume: options.resume.map { ResumeIndex($0.plan) }, keepsStepOutputs: options.keepsStepOutputs)
        onEvent(.runStarted(runID: runID, playbook: playbook.name, inputs: state.redactor.redact(inputs)))
        if let recorder, !options.dryRun, options.resume == nil {
            do {
                try await recorder.runStarted(
                    RunRecord(
                        runID: runID, playbook: playbook.name, source: options.source,
                        sourceHash: SourceHash.of(options.source), inputs: state.redactor.redact(inputs),
                        trigger: options.trigger, started: started, dryRun: options.dryRun,
                        scheduledAt: options.scheduledAt, keepUntil: playbook.retention?.days.map { started.addingTimeInterval(Double($0) * 86_400) }))
            } catch {
                return await finish(
                    execution, status: .failed, failure: "the run could not be recorded: \(error)", kind: .journal,
                    interrupted: false, onEvent: onEvent)
            }
        }
        if let plan = options.resume?.plan { execution.restore(plan) }

        var outcome = await execution.runSteps()
        // A dry run changed nothing, so it never reports a rollback: a failure is `failed`.
        if options.dryRun, outcome.status == .rolledBack { outcome.status = .failed }
        if let pause = outcome.pause {
            if let waiting = await wait(execution, at: pause, onEvent: onEvent) { return waiting }
            outcome = StepsOutcome(
                status: execution.rollbackOrStop(), failure: "the approval request of step '\(pause.step)' could not be recorded",
                kind: .journal, interrupted: false)
        }
        if outcome.status == .rolledBack, !(await execution.rollBack()) {
            outcome.status = .rollbackIncomplete
        }
        return await finish(
            execution, status: outcome.status, failure: outcome.failure, kind: outcome.kind, interrupted: outcome.interrupted,
            onEvent: onEvent)
    }

    /// Undoes the completed calls of an earlier run whose process ended (see `skillbook rollback`).
    /// `unrecorded` calls cannot be undone: their steps end `uncertain`, the run `rollback_incomplete`
    /// with their message as its error.
    public func rollBack(
        _ playbook: Playbook, runID: String, completed: [RecordedCall], unrecorded: UnrecordedCalls? = nil,
        workspace: String = "", onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        let state = RunState(
            reports: playbook.steps.map { StepReport(id: $0.id, skill: $0.playbook.map { "playbook:\($0)" } ?? $0.skill) },
            workspace: workspace)
        let execution = RunExecution(
            engine: self, playbook: playbook, inputs: [:], runID: runID, started: environment.now(), deadline: nil,
            dryRun: false, onEvent: onEvent, state: state, resume: nil)
        execution.restore(ResumePlan(completed: completed))
        let complete = await execution.rollBack(unrecorded: unrecorded?.keys ?? [])
        let status: RunStatus = complete && unrecorded == nil ? .rolledBack : .rollbackIncomplete
        return await finish(execution, status: status, failure: unrecorded?.message, kind: nil, interrupted: false, onEvent: onEvent)
    }

    /// Ends a run that stopped at a confirmation nobody could give now: its request is recorded
    /// (durably, before the run's end), and the run ends `waiting`, holding nothing. `nil` when the
    /// request could not be recorded (the run then fails, as nobody could ever approve it).
    private func wait(_ execution: RunExecution, at request: ApprovalRequest, onEvent: RunEventHandler) async -> RunResult? {
        if let recorder {
            do { try await recorder.approvalRequested(request) } catch {
                onEvent(.warning(RunWarning(step: request.step, message: execution.state.redactor.redact("the journal could not record the approval request: \(error)"))))
                return nil
            }
        }
        onEvent(.runWaiting(request))
        // It waits holding nothing: the locks of the steps before are let go before it says so.
        await execution.state.releasesEnded()
        return await finish(
            execution, status: .waiting, failure: nil, kind: nil, interrupted: false, approval: request, onEvent: onEvent)
    }

    private func finish(
        _ execution: RunExecution, status: RunStatus, failure: String?, kind: FailureKind?, interrupted: Bool,
        approval: ApprovalRequest? = nil, onEvent: RunEventHandler
    ) async -> RunResult {
        var failure = failure
        var kind = kind
        var outputs = ValueObject()
        var unknown: [String] = []
        if status == .succeeded || status == .succeededWithErrors {
            do {
                unknown = execution.dryRun ? execution.unknownOutputs() : []
                outputs = try execution.evaluateOutputs(skipping: Set(unknown))
            } catch {
                if failure == nil {
                    failure = error.message
                    kind = .validation
                }
            }
        }
        let redactor = execution.state.redactor
        var result = RunResult(
            runID: execution.runID, playbook: execution.playbook.name, status: status, interrupted: interrupted,
            outputs: redactor.redact(outputs), steps: execution.state.read(\.reports), error: failure.map(redactor.redact),
            started: execution.started, finished: environment.now())
        result.failureKind = failure == nil ? nil : kind
        result.unknownOutputs = unknown
        result.approval = approval
        if !execution.dryRun, let recorder {
            // The journal keeps large outputs cut short; the caller gets them whole.
            var recorded = result
            if case .object(let bounded) = journalValueLimit.bounded(.object(recorded.outputs)).value {
                recorded.outputs = bounded
            }
            do { try await recorder.runFinished(recorded) } catch {
                onEvent(.warning(RunWarning(step: nil, message: redactor.redact("the journal could not record the run's end: \(error)"))))
            }
        }
        onEvent(.runFinished(result))
        return result
    }
}
