public import Foundation

/// What names mean where an expression appears; the playbook checker builds one per place.
public struct ExpressionScope: Sendable {
    public enum StepVisibility: Sendable, Hashable {
        /// Runs before the expression: its output can be used.
        case earlier
        /// The step the expression belongs to.
        case current
        /// Runs after the expression.
        case later
    }

    public struct StepBinding: Sendable {
        public var skill: String
        public var output: ExprType
        public var visibility: StepVisibility

        public init(skill: String, output: ExprType, visibility: StepVisibility) {
            self.skill = skill
            self.output = output
            self.visibility = visibility
        }
    }

    /// `nil`: `inputs` is not available here (inside input defaults, say).
    public var inputs: [ObjectField]?
    public var steps: [String: StepBinding]
    /// The type of `item`; `item` and `index` exist only inside `foreach`.
    public var item: ExprType?
    /// Declared env names.
    public var env: [String]
    /// Inside rollback steps: the types of `this.input` and `this.output`.
    public var this: (input: ExprType, output: ExprType)?
    /// Whether `run` (id, playbook, started) exists here: not in input defaults, which are
    /// resolved before the run starts.
    public var hasRun = true
    /// Inside a notification's steps: `run` is the run it reports (`NotificationSubject.fields`).
    public var notificationRun = false
    /// The secret names `secret('NAME')` may use (`secrets:` of `skillbook.yaml` and the
    /// playbook); `nil` when they are not known here (then any name passes the check).
    public var secrets: [String]?
    /// `secrets` is the playbook's own `secrets:` list (an unknown name is to be listed there).
    public var secretsListedByPlaybook = false

    public init(
        inputs: [ObjectField]? = [], steps: [String: StepBinding] = [:], item: ExprType? = nil, env: [String] = [],
        this: (input: ExprType, output: ExprType)? = nil
    ) {
        self.inputs = inputs
        self.steps = steps
        self.item = item
        self.env = env
        self.this = this
    }
}

/// The values names have while a run evaluates an expression.
public struct EvaluationContext: Sendable {
    public var inputs: ValueObject
    /// Step id → output. A skipped or failed step is absent: referencing it yields null.
    public var steps: [String: Value]
    public var item: Value?
    public var index: Int?
    public var env: [String: String]
    /// `id`, `playbook`, `started`.
    public var run: ValueObject
    /// `{ input, output }` inside rollback steps.
    public var this: ValueObject?
    /// The time `today()` and `now()` read, and relative dates resolve against.
    public var now: Date
    public var timeZone: TimeZone
    /// The most steps (nodes evaluated) one expression's evaluation may take.
    public var stepLimit = Limits.expressionSteps
    /// The run's secrets, when it has any: what the evaluator derives from them is added.
    public var taint: SecretTaint?
    /// The values of the secrets named in `secrets:` (`secret('NAME')`), read from their providers.
    public var secrets: [String: String] = [:]

    public init(
        inputs: ValueObject = ValueObject(), steps: [String: Value] = [:], item: Value? = nil, index: Int? = nil,
        env: [String: String] = [:], run: ValueObject = ValueObject(), this: ValueObject? = nil, now: Date = Date(),
        timeZone: TimeZone = .current
    ) {
        self.inputs = inputs
        self.steps = steps
        self.item = item
        self.index = index
        self.env = env
        self.run = run
        self.this = this
        self.now = now
        self.timeZone = timeZone
    }
}
