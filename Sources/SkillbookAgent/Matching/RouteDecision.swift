public import SkillbookCore

/// What `ask` decided for a request, before anything runs: the value `ask --explain --json` prints.
public struct RouteDecision: Sendable {
    public enum Layer: String, Sendable, Hashable {
        /// A playbook's trigger matched (layer 1).
        case playbook
        /// A single skill's example matched (layer 2): a one-step plan.
        case skill
        /// The request is plan-shaped (several clauses for different skills) or needs the model.
        case plan
        /// Nothing matched, or two candidates are too close to choose.
        case none
    }

    public var layer: Layer
    /// The playbook or skill, for `playbook` and `skill`.
    public var target: String?
    /// Captured inputs, coerced to their schemas (`2026-12-02`, `2026-12-02T09:00:00+01:00`).
    public var inputs: ValueObject
    /// The chosen candidate's confidence; for `none`, the best one's.
    public var confidence: Double
    /// The strongest candidates, best first (at most three); for `none` the three nearest; for a
    /// plan-shaped request the best target of each clause, in order.
    public var candidates: [RouteCandidate]
    /// Model plan steps, when a model planned; `nil` otherwise.
    public var plan: [Value]?
    /// A question for the person: which of two near-tied candidates, or a missing required input.
    public var question: String?
    /// Required inputs the request did not give.
    public var missing: [String]
    /// For a plan-shaped request, its clauses as split.
    public var clauses: [String]
    /// Whether anything here can do some part of the request: it or one of its clauses has a
    /// candidate at the acceptance threshold. A request none of whose parts is covered ("book a
    /// flight to Paris", "帮我订一张去上海的火车票") is declined without asking a model, which would plan
    /// something anyway. On `Fixtures/plan_requests.json` the declines' best part scores 0.01–0.30
    /// and every request a model should plan has a part at 0.57 or more.
    public var coversSomePart = true
    /// The matcher was unsure and the model chose this target among its candidates (`SecondOpinion`).
    public var secondOpinion = false

    public init(
        layer: Layer, target: String? = nil, inputs: ValueObject = [:], confidence: Double = 0,
        candidates: [RouteCandidate] = [], plan: [Value]? = nil, question: String? = nil, missing: [String] = [],
        clauses: [String] = []
    ) {
        self.layer = layer
        self.target = target
        self.inputs = inputs
        self.confidence = confidence
        self.candidates = candidates
        self.plan = plan
        self.question = question
        self.missing = missing
        self.clauses = clauses
    }

    /// `{"layer", "target", "inputs", "confidence", "candidates": [{"layer", "target", "confidence"}…],
    /// "plan", "question"}`, and `"second_opinion": true` when the model chose the target;
    /// confidences rounded to three decimals.
    public var json: Value {
        var object: ValueObject = [:]
        object["layer"] = .string(layer.rawValue)
        object["target"] = target.map(Value.string) ?? .null
        object["inputs"] = .object(inputs)
        object["confidence"] = .double(Self.rounded(confidence))
        object["candidates"] = .array(
            candidates.map { candidate in
                .object([
                    "layer": .string(candidate.layer.rawValue), "target": .string(candidate.target),
                    "confidence": .double(Self.rounded(candidate.confidence)),
                ])
            })
        object["plan"] = plan.map(Value.array) ?? .null
        object["question"] = question.map(Value.string) ?? .null
        if secondOpinion { object["second_opinion"] = true }
        return .object(object)
    }

    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// The (at most three) nearest candidates worth naming: those that score above 0.0.
    public var nearest: [RouteCandidate] {
        Array(candidates.filter { Self.rounded($0.confidence) > 0 }.prefix(3))
    }

    /// For `none` with no model: the three nearest targets and how to configure a model.
    public var nothingMatchedMessage: String {
        var lines = ["nothing matched this request."]
        if !nearest.isEmpty {
            lines.append("nearest:")
            for candidate in nearest {
                lines.append("  \(candidate.layer.rawValue) \(candidate.target) (\(Self.rounded(candidate.confidence)))")
            }
        }
        lines.append(
            "to plan requests like this with a language model, set SKILLBOOK_MODEL_URL (an OpenAI-compatible "
                + "server such as http://127.0.0.1:8080/v1) and SKILLBOOK_MODEL (and SKILLBOOK_API_KEY if it needs one).")
        return lines.joined(separator: "\n")
    }

    /// No playbook or skill here can do any part of the request, so the model is not asked.
    public var outOfScopeMessage: String {
        var lines = ["nothing here can do any part of this request, so the model was not asked to plan it."]
        if !nearest.isEmpty {
            lines.append("nearest: " + nearest.map { "\($0.layer.rawValue) \($0.target)" }.joined(separator: ", "))
        }
        lines.append("'skillbook skills' and 'skillbook list' show what is here.")
        return lines.joined(separator: "\n")
    }
}
