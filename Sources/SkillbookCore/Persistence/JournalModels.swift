public import Foundation

/// A run's status as the journal reports it: how it ended, or that it is still running, or that
/// the process running it died (`interrupted`).
public enum JournalStatus: String, Sendable, Hashable, CaseIterable {
    case running
    case succeeded
    case succeededWithErrors = "succeeded_with_errors"
    case failed
    case rolledBack = "rolled_back"
    case rollbackIncomplete = "rollback_incomplete"
    /// The process running it ended without finishing it: resume or roll it back.
    case interrupted
    /// Recorded by `run --queue`, waiting for a worker to claim it (a shared PostgreSQL state).
    case queued
    /// Stopped at a call that needs confirmation, nobody holding it, until someone approves or
    /// declines it (`skillbook approve`/`decline`) or its request expires.
    case waiting

    public init(_ status: RunStatus) {
        switch status {
        case .succeeded: self = .succeeded
        case .succeededWithErrors: self = .succeededWithErrors
        case .failed: self = .failed
        case .rolledBack: self = .rolledBack
        case .rollbackIncomplete: self = .rollbackIncomplete
        case .waiting: self = .waiting
        }
    }
}

/// One run as listed: everything but its source text and timeline.
public struct JournalRun: Sendable {
    public var id: String
    public var playbook: String
    /// The playbook file it ran from, when the caller said (the CLI does).
    public var file: String?
    public var sourceHash: String
    /// Secrets redacted.
    public var inputs: ValueObject
    /// `cli`, `schedule` or `agent`.
    public var trigger: RunTrigger
    /// Computed when read: a `running` run whose process is gone is `interrupted`.
    public var status: JournalStatus
    /// Why the run counts as interrupted (`process 123 is gone`), when it does.
    public var interruption: String?
    /// The engine's flag: Ctrl-C, SIGTERM or cancellation stopped the run (it then rolled back).
    public var interruptedBySignal: Bool
    public var started: Date
    public var finished: Date?
    /// The process that holds (or last held) the run.
    public var holder: ProcessIdentity?
    public var heartbeat: Date?
    public var error: String?
    /// Secrets redacted; `nil` until the run ends.
    public var outputs: ValueObject?
    /// The fire's scheduled instant, for a run with trigger `schedule`.
    public var scheduledAt: Date?
    /// The workspace folder the run was started in, when the host said (see `RunJournal.setWorkspace`).
    public var workspace: String?
    /// The worker (`skillbook worker --name`) that holds or last held the run, if a worker ran it.
    public var worker: String?

    /// Seconds from start to end; `nil` while it has not ended.
    public var duration: Double? { finished.map { $0.timeIntervalSince(started) } }

    public init(
        id: String, playbook: String, file: String?, sourceHash: String, inputs: ValueObject, trigger: RunTrigger, status: JournalStatus, interruption: String?, interruptedBySignal: Bool, started: Date, finished: Date?, holder: ProcessIdentity?, heartbeat: Date?, error: String?, outputs: ValueObject?
    ) {
        self.id = id
        self.playbook = playbook
        self.file = file
        self.sourceHash = sourceHash
        self.inputs = inputs
        self.trigger = trigger
        self.status = status
        self.interruption = interruption
        self.interruptedBySignal = interruptedBySignal
        self.started = started
        self.finished = finished
        self.holder = holder
        self.heartbeat = heartbeat
        self.error = error
        self.outputs = outputs
    }
}

/// One process's stint on a run: the first `run`, then any `resume` or `rollback`.
public struct JournalSession: Sendable {
    public var kind: String
    public var pid: Int32
    public var host: String
    public var started: Date
    public var ended: Date?
    /// The status it left the run in, `interrupted` when its process died, `nil` while it holds the run.
    public var outcome: String?
    /// Who started it: the run's trigger for its first session; for a resume or rollback, where it
    /// was asked (`cli`, `console`); `nil` for sessions recorded before triggers were (or a worker's claim).
    public var trigger: RunTrigger?

    public init(
        kind: String, pid: Int32, host: String, started: Date, ended: Date?, outcome: String?, trigger: RunTrigger? = nil
    ) {
        self.trigger = trigger
        self.kind = kind
        self.pid = pid
        self.host = host
        self.started = started
        self.ended = ended
        self.outcome = outcome
    }
}

/// One attempt of one call, its parameters and output as `Parameters` and `Output`: decoded
/// (`JournalCall`) or as the journal stores them (`StoredCall`).
public struct JournalCallAttempt<Parameters: Sendable, Output: Sendable>: Sendable {
    public var key: CallKey
    public var skill: String
    public var attempt: Int
    /// An object; secrets redacted.
    public var parameters: Parameters
    public var output: Output?
    public var error: String?
    public var started: Date
    public var finished: Date?
    public var compensated: Bool
    /// Order of finishing (or, unfinished, of starting) within the run.
    public var order: Int
    /// Secrets were masked in `output`: it is not the output later steps used.
    public var outputMasked: Bool

    /// Started, and neither returned nor failed: its process died during the call.
    public var isUncertain: Bool { output == nil && error == nil }

    public init(
        key: CallKey, skill: String, attempt: Int, parameters: Parameters, output: Output?, error: String?, started: Date, finished: Date?,
        compensated: Bool, order: Int, outputMasked: Bool = false
    ) {
        self.key = key
        self.skill = skill
        self.attempt = attempt
        self.parameters = parameters
        self.output = output
        self.error = error
        self.started = started
        self.finished = finished
        self.compensated = compensated
        self.order = order
        self.outputMasked = outputMasked
    }
}

/// One attempt of one call, its values decoded.
public typealias JournalCall = JournalCallAttempt<ValueObject, Value>

extension JournalCall {
    public var journaled: JournaledCall {
        JournaledCall(
            key: key, skill: skill, attempt: attempt, parameters: parameters, output: output, error: error, order: order,
            compensated: compensated, outputMasked: outputMasked)
    }
}

/// A step's end, as written when it ended (a resumed step may end more than once).
public struct JournalStep: Sendable {
    public var step: String
    public var status: StepStatus
    public var output: Value?
    public var error: String?
    public var finished: Date
    /// Secrets were masked in `output`.
    public var outputMasked: Bool

    public init(
        step: String, status: StepStatus, output: Value?, error: String?, finished: Date, outputMasked: Bool = false
    ) {
        self.step = step
        self.status = status
        self.output = output
        self.error = error
        self.finished = finished
        self.outputMasked = outputMasked
    }
}

/// One compensation of one completed call; `error` when it could not be undone.
public struct JournalCompensation: Sendable {
    public var key: CallKey
    public var error: String?
    public var finished: Date

    public init(
        key: CallKey, error: String?, finished: Date
    ) {
        self.key = key
        self.error = error
        self.finished = finished
    }
}

/// A step's wait for resources another run held (see `ResourceLocking`).
public struct JournalWait: Sendable {
    public var step: String
    public var wait: ResourceWait
    public var started: Date
    /// `nil` while it still waits.
    public var ended: Date?
    /// `acquired`, `cancelled` or `holder changed` (another run took the resources meanwhile).
    public var outcome: String?

    public init(step: String, wait: ResourceWait, started: Date, ended: Date?, outcome: String?) {
        self.step = step
        self.wait = wait
        self.started = started
        self.ended = ended
        self.outcome = outcome
    }
}

/// Everything the journal holds of one run.
public struct RunTimeline: Sendable {
    public var run: JournalRun
    /// The playbook's text as it ran.
    public var source: String
    public var sessions: [JournalSession]
    /// In order of starting.
    public var calls: [JournalCall]
    public var steps: [JournalStep]
    public var compensations: [JournalCompensation]
    /// Each step's final report (status, attempts, errors), once the run has ended.
    public var report: Value?
    /// Its steps' waits for resources, in order of starting.
    public var waits: [JournalWait] = []

    public init(
        run: JournalRun, source: String, sessions: [JournalSession], calls: [JournalCall], steps: [JournalStep], compensations: [JournalCompensation], report: Value?
    ) {
        self.run = run
        self.source = source
        self.sessions = sessions
        self.calls = calls
        self.steps = steps
        self.compensations = compensations
        self.report = report
    }
}

/// Why the journal refused or could not find something; the message says what to do.
public struct JournalError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public enum Kind: Sendable, Hashable {
        /// No run has that id (or prefix).
        case notFound
        /// More than one run starts with that prefix.
        case ambiguous
        /// Another live process holds the run.
        case busy
        /// The run is not in a state that allows it.
        case refused
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}
