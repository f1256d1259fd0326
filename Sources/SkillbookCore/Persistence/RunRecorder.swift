public import Foundation

/// Identifies one call of a run: the step (`parent/child` inside sub-playbooks), and which foreach
/// element and which batch of it. The same inputs always give the same keys, so a resumed run
/// recognises the calls it already made.
public struct CallKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The step, with the sub-playbook steps around it.
    public var step: StepPath
    /// 0-based foreach element.
    public var iteration: Int?
    /// 0-based batch.
    public var batch: Int?

    public init(step: StepPath, iteration: Int? = nil, batch: Int? = nil) {
        self.step = step
        self.iteration = iteration
        self.batch = batch
    }

    public var description: String {
        var text = step.description
        if let iteration { text += "[item \(iteration + 1)]" }
        if let batch { text += "[batch \(batch + 1)]" }
        return text
    }

    public static func < (lhs: CallKey, rhs: CallKey) -> Bool {
        (lhs.step, lhs.iteration ?? -1, lhs.batch ?? -1) < (rhs.step, rhs.iteration ?? -1, rhs.batch ?? -1)
    }
}

/// What the recorder learns when a run starts.
public struct RunRecord: Sendable {
    public var runID: String
    public var playbook: String
    /// The playbook's source text and a hash of it, so a resume can tell whether the file changed.
    public var source: String
    public var sourceHash: String
    /// Secrets already redacted.
    public var inputs: ValueObject
    /// `cli`, `schedule` or `agent`.
    public var trigger: RunTrigger
    public var started: Date
    public var dryRun: Bool
    /// The fire's scheduled instant, for a run with trigger `schedule`.
    public var scheduledAt: Date?

    public init(
        runID: String, playbook: String, source: String, sourceHash: String, inputs: ValueObject, trigger: RunTrigger,
        started: Date, dryRun: Bool, scheduledAt: Date? = nil
    ) {
        self.scheduledAt = scheduledAt
        self.runID = runID
        self.playbook = playbook
        self.source = source
        self.sourceHash = sourceHash
        self.inputs = inputs
        self.trigger = trigger
        self.started = started
        self.dryRun = dryRun
    }
}

/// One attempt of one call, recorded before the skill runs and completed after it returns.
public struct CallRecord: Sendable {
    public var runID: String
    public var key: CallKey
    public var skill: String
    public var attempt: Int
    /// Secrets redacted.
    public var parameters: ValueObject
    public var started: Date
    /// The skill is an action (anything but a read-only query): a call whose result is lost would
    /// leave a resume unsure whether it took effect.
    public var hasEffects: Bool
    /// Set on the record passed to `callFinished` when secrets were masked in its output: the
    /// output recorded is not the one later steps used.
    public var outputMasked = false

    public init(
        runID: String, key: CallKey, skill: String, attempt: Int, parameters: ValueObject, started: Date,
        hasEffects: Bool = true
    ) {
        self.runID = runID
        self.key = key
        self.skill = skill
        self.attempt = attempt
        self.parameters = parameters
        self.started = started
        self.hasEffects = hasEffects
    }
}

/// Where the engine writes a run as it happens (a `RunJournal`, such as the SQLite journal), so that
/// a run whose process died can be resumed or rolled back.
///
/// The engine calls `callStarted` before every skill call and does not call the skill if it
/// throws; it calls `callFinished` as soon as the skill returns. A conformer must make the start
/// and the result of a call with effects (`CallRecord.hasEffects`), `compensationFinished`,
/// `runStarted` and `runFinished` durable before returning. It may write the records of read-only
/// calls and steps' ends a little later (with the next durable record, or within a fraction of a
/// second): losing those can only make a resume redo work without side effects. It must be safe
/// to call from concurrent tasks.
public protocol RunRecorder: Sendable {
    func runStarted(_ run: RunRecord) async throws
    func callStarted(_ call: CallRecord) async throws
    /// `output` and `error` come with secrets masked (see `CallRecord.outputMasked`).
    func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) async throws
    /// `output` and `error` come with secrets masked; `outputMasked` says whether that changed the output.
    func stepFinished(
        runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?
    ) async throws
    func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) async throws
    func runFinished(_ result: RunResult) async throws
}

extension RunRecorder {
    /// The end of a step whose output holds no secret.
    public func stepFinished(runID: String, step: String, status: StepStatus, output: Value?, error: String?) async throws {
        try await stepFinished(runID: runID, step: step, status: status, output: output, outputMasked: false, error: error)
    }
}

/// A call that completed in an earlier process, as the journal kept it.
public struct RecordedCall: Sendable {
    public var key: CallKey
    public var skill: String
    public var call: CompletedCall

    public init(key: CallKey, skill: String, call: CompletedCall) {
        self.key = key
        self.skill = skill
        self.call = call
    }
}

/// What a resumed run starts from: the steps that finished, the calls that completed (in order
/// of completion), and what to do with calls that started but have no result.
public struct ResumePlan: Sendable {
    public enum Uncertain: Sendable, Hashable {
        /// Call it again.
        case rerun
        /// Do not call it again; count it as done with no output.
        case skip
    }

    /// Step id → its final status and output.
    public var finishedSteps: [String: (status: StepStatus, output: Value?)]
    /// Completed calls in order of completion.
    public var completed: [RecordedCall]
    public var uncertain: [CallKey: Uncertain]
    /// Reused calls whose recorded output had secrets masked: later steps see `***` in their place.
    public var maskedOutputs: [CallKey] = []

    public init(
        finishedSteps: [String: (status: StepStatus, output: Value?)] = [:], completed: [RecordedCall] = [],
        uncertain: [CallKey: Uncertain] = [:]
    ) {
        self.finishedSteps = finishedSteps
        self.completed = completed
        self.uncertain = uncertain
    }
}
