/// The numbers the matcher decides with, in one place. Calibrated on the request set in
/// `Tests/SkillbookAgentTests/Fixtures/requests.json` (English and Chinese, a quarter of it
/// requests nothing covers): with these values every row of it routes as written there.
public struct MatchThresholds: Sendable, Hashable {
    /// A candidate below this confidence is not taken: the request is "nothing matched".
    public var accept: Double
    /// The best candidate must lead the runner-up by at least this much; a closer race is a near
    /// tie, reported with a question instead of a guess.
    public var margin: Double
    /// A whole-pattern match starts at this confidence and rises to 1 with the share of the request
    /// that literal text and typed slots explain.
    public var patternBase: Double
    /// Word scoring (no pattern matched) never reaches above this, so a pattern match wins a tie.
    public var wordCap: Double
    /// In a request whose clauses each start with a verb, a clause whose best candidate reaches
    /// this is near enough to a target to be a step of a plan (one clause must reach `accept`).
    public var clause: Double

    public init(accept: Double = 0.42, margin: Double = 0.06, patternBase: Double = 0.75, wordCap: Double = 0.85, clause: Double = 0.3) {
        self.clause = clause
        self.accept = accept
        self.margin = margin
        self.patternBase = patternBase
        self.wordCap = wordCap
    }

    public static let standard = MatchThresholds()
}
