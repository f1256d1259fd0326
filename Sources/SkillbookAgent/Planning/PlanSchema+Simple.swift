public import SkillbookCore

extension PlanSchema {
    /// The simpler answer schema a plan is asked with once no answer could be read (the server's
    /// HTTP 500 when it could not fit the model's output to the full schema, or text that is no
    /// plan): `{"steps": [{"skill": ID, "with": {…}}…]}` with `skill` an enum of the offered skill
    /// ids (`playbook` of the playbooks') and `with` any object, or `{"question"}`. What it no
    /// longer constrains (parameter types, references) the checker still checks.
    public static func simple(_ offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil) -> Value {
        var items: [Value] = []
        for (key, layer) in [("skill", PlanOffer.Layer.skill), ("playbook", .playbook)] {
            let names = offers.filter { $0.layer == layer }.map(\.name)
            guard !names.isEmpty else { continue }
            items.append([
                "type": "object",
                "properties": [key: ["enum": .array(names.map(Value.string))], "with": ["type": "object"]],
                "required": [.string(key), "with"], "additionalProperties": false,
            ])
        }
        let least = max(1, minSteps)
        var list: ValueObject = [
            "type": "array", "minItems": .int(least), "items": items.count == 1 ? items[0] : ["anyOf": .array(items)],
        ]
        if let maxSteps { list["maxItems"] = .int(max(least, maxSteps)) }
        return ["anyOf": [plan(list), question]]
    }

    /// The schema of a proposed order of steps (`PromptBuilder.sequenceQuestion`):
    /// `{"steps": [ID, …]}`, each an enum of the offered ids, `minSteps` to `maxSteps` of them, or
    /// `{"question"}`.
    public static func sequence(_ offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil) -> Value {
        let least = max(1, minSteps)
        var list: ValueObject = [
            "type": "array", "minItems": .int(least), "items": ["enum": .array(offers.map { .string($0.name) })],
        ]
        if let maxSteps { list["maxItems"] = .int(max(least, maxSteps)) }
        return ["anyOf": [plan(list), question]]
    }
}
