/// A decoded playbook: the YAML format of DESIGN.md, with every mapping parsed and positioned.
public struct Playbook: Sendable {
    public var name: String
    public var description: String
    public var triggers: [String]
    public var inputs: [PlaybookInput]
    /// Environment variables the playbook may read as `env.NAME`.
    public var env: [String]
    /// `secrets:`: the names of the workspace's secrets it reads (names only; the providers are in
    /// `skillbook.yaml`). When given, `from:` and `secret('NAME')` may use only these; `nil`: not listed.
    public var secrets: [DeclaredSecret]?
    public var onFailure: FailurePolicy
    /// What a worker that takes the run over from a dead one does when that one died during a call
    /// that may or may not have happened (`on_worker_loss:`, a PostgreSQL state's queue).
    public var onWorkerLoss: WorkerLossPolicy = .wait
    /// Seconds the whole run may take.
    public var timeout: Double?
    /// Seconds an approval request of its steps waits before it counts as declined
    /// (`approval: { timeout: 4h }`); `nil`: `ApprovalTimeout.standard`.
    public var approvalTimeout: Double?
    /// How long its runs are kept (`retention:`), where it differs from the workspace's (see `RetentionPolicy`).
    public var retention: PlaybookRetention?
    public var steps: [PlaybookStep]
    public var outputs: [OutputMapping]
    /// When it runs on its own (`schedule:`); empty when it is not scheduled.
    public var schedule: [ScheduleEntry] = []
    /// The file it was loaded from (as given), for diagnostics.
    public var file: String
    /// Where the value of `name:` is.
    public var nameLocation: SourceLocation?
    /// The playbooks its steps run as sub-playbooks, by name, resolved when it loads.
    public var subPlaybooks: [String: Playbook] = [:]
    /// `notify:`: what runs when a run of it ends (or waits), or its schedule drops fires.
    public var notify: [NotifyRule] = []
    /// A notification's own playbook (`notificationPlaybook(for:)`): `run` is the run it reports.
    public var isNotification = false
    /// What a starting daemon does with a run of it that a previous daemon left `interrupted`.
    public var onInterrupted: InterruptedPolicy = .leave

    public init(
        name: String, description: String = "", triggers: [String] = [], inputs: [PlaybookInput] = [],
        env: [String] = [], onFailure: FailurePolicy = .rollback, timeout: Double? = nil,
        steps: [PlaybookStep], outputs: [OutputMapping] = [], file: String
    ) {
        self.name = name
        self.description = description
        self.triggers = triggers
        self.inputs = inputs
        self.env = env
        self.onFailure = onFailure
        self.timeout = timeout
        self.steps = steps
        self.outputs = outputs
        self.file = file
    }

    public func step(_ id: String) -> PlaybookStep? {
        steps.first { $0.id == id }
    }
}

/// What happens when a step fails after its retries.
public enum FailurePolicy: String, Sendable, Hashable, CaseIterable {
    /// Compensate every completed step in reverse order (the default).
    case rollback
    /// Stop; keep what completed.
    case stop
    /// Record the failure and go on with the next step.
    case `continue`
}

/// What happens to a run whose worker died during a call of a skill that is neither idempotent
/// nor read-only (nothing says whether it took effect), when another worker takes it over.
public enum WorkerLossPolicy: String, Sendable, Hashable, CaseIterable {
    /// The run waits, `interrupted`, for a person to `resume` or `rollback` it (the default).
    case wait
    /// The taking worker undoes what the run completed; the uncertain call, which cannot be
    /// undone, is named and the run ends `rollback_incomplete`.
    case rollback
}

/// `on_interrupted:`: what a daemon that starts does with a run of the playbook that its
/// predecessor left `interrupted` (killed, the machine went down).
public enum InterruptedPolicy: String, Sendable, Hashable, CaseIterable {
    /// Carry it on from where it stopped (the resume rules).
    case resume
    /// Undo what it completed.
    case rollback
    /// Leave it for a person, and notify `failure` (the default).
    case leave
}

public struct PlaybookInput: Sendable {
    public var name: String
    public var schema: Schema
    /// The default when it is an expression such as `${{ today() }}`; literal defaults live in `schema`.
    public var defaultExpression: MappedValue?
    /// The `default:` as written, literal or not, for pointing at it.
    public var defaultSource: MappedValue?
    public var location: SourceLocation

    public init(name: String, schema: Schema, defaultExpression: MappedValue? = nil, location: SourceLocation) {
        self.name = name
        self.schema = schema
        self.defaultExpression = defaultExpression
        self.location = location
    }

    /// Whoever starts the run must give it: it has no default, and no provider (`from:`) gives it.
    public var isRequired: Bool { schema.defaultValue == nil && defaultExpression == nil && schema.secretFrom == nil }
}

public struct PlaybookStep: Sendable {
    public var id: String
    /// The skill it calls; empty for a sub-playbook step.
    public var skill: String
    /// The playbook it runs as one step, instead of a skill.
    public var playbook: String?
    public var with: [ParameterMapping]
    /// One call per element of this list, with `item` and `index` bound.
    public var foreach: MappedValue?
    /// How many foreach iterations run at once.
    public var concurrency: Int
    /// How an oversized list parameter is split into calls.
    public var batch: BatchPolicy?
    /// Steps that undo this one, overriding the skill's own compensation.
    public var rollback: [PlaybookStep]?
    /// Runs the step only when this is truthy.
    public var when: MappedValue?
    public var retry: RetryPolicy
    public var timeout: Double?
    /// The step's own `approval: { timeout }`, over the playbook's.
    public var approvalTimeout: Double?
    /// The step's own policy; `nil` uses the playbook's.
    public var onFailure: FailurePolicy?
    /// `false` lets a confirm-skill run without a terminal; `nil` keeps the skill's setting.
    public var confirm: Bool?
    public var location: SourceLocation
    public var skillLocation: SourceLocation
    /// Where `with:` is, or the step itself when absent.
    public var withLocation: SourceLocation

    public init(
        id: String, skill: String, with: [ParameterMapping] = [], when: MappedValue? = nil,
        retry: RetryPolicy = .none, timeout: Double? = nil, onFailure: FailurePolicy? = nil, confirm: Bool? = nil,
        location: SourceLocation, skillLocation: SourceLocation? = nil, withLocation: SourceLocation? = nil
    ) {
        self.id = id
        self.skill = skill
        self.playbook = nil
        self.with = with
        self.foreach = nil
        self.concurrency = 1
        self.batch = nil
        self.rollback = nil
        self.when = when
        self.retry = retry
        self.timeout = timeout
        self.approvalTimeout = nil
        self.onFailure = onFailure
        self.confirm = confirm
        self.location = location
        self.skillLocation = skillLocation ?? location
        self.withLocation = withLocation ?? location
    }
}

extension PlaybookStep {
    /// Whether `when` is decided per foreach item: the step has `foreach` and its `when` uses
    /// `item` or `index`. Otherwise `when` is decided once, before the step.
    ///
    /// A skipped item keeps its place in the step's output as `{ skipped: true }`.
    public var whenIsPerItem: Bool {
        guard foreach != nil, let when else { return false }
        return when.templates.contains { entry in
            entry.template.expressions.contains { expression in
                expression.references.contains { ["item", "index"].contains($0.first ?? "") }
            }
        }
    }
}

/// `batch:` of a step: how an oversized list parameter is split.
public struct BatchPolicy: Sendable, Hashable {
    /// Items per call; never more than the parameter's `maxItems`.
    public var size: Int?
    /// Batches that run at once.
    public var concurrency: Int
    /// Seconds to wait between starting batches.
    public var pause: Double
    /// The parameter that drives batching, when more than one could.
    public var over: String?
    public var location: SourceLocation

    public init(size: Int? = nil, concurrency: Int = 1, pause: Double = 0, over: String? = nil, location: SourceLocation) {
        self.size = size
        self.concurrency = concurrency
        self.pause = pause
        self.over = over
        self.location = location
    }
}

public struct ParameterMapping: Sendable {
    public var name: String
    public var value: MappedValue
    public var keyLocation: SourceLocation

    public init(name: String, value: MappedValue, keyLocation: SourceLocation) {
        self.name = name
        self.value = value
        self.keyLocation = keyLocation
    }
}

public struct OutputMapping: Sendable {
    public var name: String
    public var value: MappedValue

    public init(name: String, value: MappedValue) {
        self.name = name
        self.value = value
    }
}

public struct RetryPolicy: Sendable, Hashable {
    public enum Backoff: String, Sendable, Hashable, CaseIterable {
        case fixed, exponential
    }

    /// Total attempts, at least 1.
    public var attempts: Int
    public var backoff: Backoff
    /// Seconds before the second attempt.
    public var delay: Double

    public init(attempts: Int, backoff: Backoff = .exponential, delay: Double = 1) {
        self.attempts = attempts
        self.backoff = backoff
        self.delay = delay
    }

    public static let none = RetryPolicy(attempts: 1, delay: 0)

    /// Seconds to wait after failed attempt `attempt` (1-based).
    public func delay(after attempt: Int) -> Double {
        switch backoff {
        case .fixed: delay
        case .exponential: delay * Double(1 << min(max(attempt - 1, 0), 20))
        }
    }
}

/// How long an approval request waits when neither the step nor the playbook says (`approval:`).
public enum ApprovalTimeout {
    /// 24 hours.
    public static let standard: Double = 86_400

    /// The timeout of `step` in `playbook`.
    public static func of(_ step: PlaybookStep, in playbook: Playbook) -> Double {
        step.approvalTimeout ?? playbook.approvalTimeout ?? standard
    }
}
