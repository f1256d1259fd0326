/// What one request may spend on the model; every limit is enforced before each call.
public struct PlanningBudget: Sendable, Hashable {
    /// Model calls in all: the first, the samples and the repair.
    public var maxCalls: Int
    /// Tokens in all (prompt and answer, as the server reports them, else estimated at 4 characters a token).
    public var maxTokens: Int
    /// Seconds for the whole planning; each call gets what is left.
    public var maxSeconds: Double
    /// Candidates sampled at `sampleTemperature` after a first plan fails.
    public var samples: Int
    public var sampleTemperature: Double
    /// `max_tokens` of each answer.
    public var maxAnswerTokens: Int
    /// Steps a plan may have at most (the answer schema's `maxItems` is the lesser of this and one
    /// more than the request's clauses).
    public var maxSteps: Int

    public init(
        maxCalls: Int = 5, maxTokens: Int = 40_000, maxSeconds: Double = 120, samples: Int = 2, sampleTemperature: Double = 0.8,
        maxAnswerTokens: Int = 300, maxSteps: Int = 8
    ) {
        self.maxCalls = maxCalls
        self.maxTokens = maxTokens
        self.maxSeconds = maxSeconds
        self.samples = samples
        self.sampleTemperature = sampleTemperature
        self.maxAnswerTokens = maxAnswerTokens
        self.maxSteps = maxSteps
    }
}
