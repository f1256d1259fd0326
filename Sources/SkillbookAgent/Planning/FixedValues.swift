public import SkillbookCore

/// The values a plan's steps get without the model writing them: each required parameter with
/// one allowed value (a date the request names, `PlanOffer.fixingDates`). The answer schema leaves
/// such parameters out (`PlanSchema.step`) — a small local model writes a date-time as 25 tokens,
/// one digit at a time — and the planner puts them back before the checks.
struct FixedValues: Sendable {
    /// Per sequence a skeleton's answer may follow, the targets each step may name.
    private var sequences: [[[PlanOffer]]] = []
    /// The targets any step may name (a free plan).
    private var anyStep: [PlanOffer] = []

    init() {}

    /// The values of a skeleton's answer: step k's from a target of slot k of the sequence the plan follows.
    /// A plan that follows none (asked again with the simpler schema) takes each step's from the first target of its name.
    init(shape: PlanSchema.Shape) {
        sequences = shape.sequences.map { $0.map(\.offers) }
        anyStep = shape.offers
    }

    /// The values of a free plan: each step's from the offer of its name.
    init(offers: [PlanOffer]) {
        anyStep = offers
    }

    /// `plan` with every fixed value its steps leave out.
    func filled(_ plan: Plan) -> Plan {
        let names = plan.steps.map(\.target)
        let followed = sequences.first { sequence in
            sequence.count == names.count && zip(sequence, names).allSatisfy { offers, name in offers.contains { $0.name == name } }
        }
        var plan = plan
        for k in plan.steps.indices {
            let candidates = followed?[k] ?? anyStep
            guard let offer = candidates.first(where: { $0.name == plan.steps[k].target }) else { continue }
            for (name, value) in offer.fixedValues where plan.steps[k].with[name] == nil {
                plan.steps[k].with[name] = value
            }
        }
        return plan
    }
}

extension PlanOffer {
    /// The required parameters with one allowed value, each with that value: the answer schema
    /// does not ask for them (`FixedValues`).
    public var fixedValues: ValueObject {
        var fixed = ValueObject()
        for (name, schema) in parameters.properties where required.contains(name) {
            if let values = schema.enumValues, values.count == 1 { fixed[name] = values[0] }
        }
        return fixed
    }
}
