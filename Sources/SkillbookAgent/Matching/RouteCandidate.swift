public import SkillbookCore

/// One target's score for a request.
public struct RouteCandidate: Sendable {
    public var layer: RouteTarget.Layer
    public var target: String
    /// 0…1.
    public var confidence: Double
    /// The inputs captured by the best matching pattern, coerced to their schemas.
    public var inputs: ValueObject
    /// The phrase whose pattern matched the whole request, if one did.
    public var pattern: String?
    /// Index of the target in the matcher.
    var index: Int

    public init(
        layer: RouteTarget.Layer, target: String, confidence: Double, inputs: ValueObject = [:], pattern: String? = nil
    ) {
        self.layer = layer
        self.target = target
        self.confidence = confidence
        self.inputs = inputs
        self.pattern = pattern
        self.index = -1
    }

    init(target: RouteTarget, index: Int, confidence: Double, inputs: ValueObject, pattern: String?) {
        self.init(layer: target.layer, target: target.name, confidence: confidence, inputs: inputs, pattern: pattern)
        self.index = index
    }
}
