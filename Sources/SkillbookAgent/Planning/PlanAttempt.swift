/// One model call of a planning: how it was asked and what came back, so a refusal can say what
/// was tried (`Planner.Report.attempts`).
public struct PlanAttempt: Sendable, Hashable {
    /// The answer schema a call was sent with.
    public enum SchemaKind: String, Sendable, Hashable {
        /// Steps over every offer, each a `const` skill with its typed parameters (`PlanSchema.schema`).
        case full
        /// Fixed sequences of steps along the matcher's skeleton (`PlanSchema.shape`).
        case skeleton
        /// Free `steps`, `skill` an enum of the offered ids and `with` any object
        /// (`PlanSchema.simple`): asked when every answer so far was unusable.
        case simple
        /// Only the order of the steps, as skill ids (`PromptBuilder.sequenceQuestion`): asked
        /// first when the skeleton is in doubt.
        case sequence
    }

    /// What came back.
    public enum Result: Sendable, Hashable {
        /// A plan that passed the checker and the lint.
        case plan
        /// A clarifying question.
        case question
        /// A plan that failed the checker or the lint.
        case failedCheck
        /// An answer that could not be read as a plan or a question (the parser's words).
        case unreadable(String)
        /// The server could not give an answer it was willing to send (`HTTP 500: the model
        /// produced output that does not match …`, or a body that is no chat completion).
        case serverError(String)
        /// A sequence of steps (for `.sequence`).
        case sequence([String])
    }

    public var schema: SchemaKind
    public var temperature: Double
    /// A repair: the failed answer and its problems were sent back.
    public var repair: Bool
    public var result: Result
    /// How long the call took.
    public var seconds: Double

    public init(schema: SchemaKind, temperature: Double, repair: Bool = false, result: Result, seconds: Double) {
        self.schema = schema
        self.temperature = temperature
        self.repair = repair
        self.result = result
        self.seconds = seconds
    }

    /// `temperature 0.8, skeleton schema: HTTP 500 …` — one call, for a refusal's diagnostics (the
    /// refusal gives the time of all of them).
    public var summary: String {
        var text = repair ? "repair at temperature \(Self.number(temperature))" : "temperature \(Self.number(temperature))"
        text += ", \(schema.rawValue) schema: "
        switch result {
        case .plan: text += "a plan that passed"
        case .question: text += "a question"
        case .failedCheck: text += "a plan that failed the checks"
        case .unreadable(let why): text += why
        case .serverError(let why): text += why
        case .sequence(let steps): text += "steps " + steps.joined(separator: ", ")
        }
        return text
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value))" : "\(value)"
    }
}
