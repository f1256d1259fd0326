import SkillbookCore

extension RunExecution {
    /// Evaluates `with:`, fills skill defaults, coerces and validates (the batched list as a whole).
    func resolveParameters(
        _ step: PlaybookStep, _ skill: SkillDescriptor, context: EvaluationContext, driver: BatchDriver?
    ) throws -> ValueObject {
        let coercion = Coercion(dates: DateParser(now: context.now, timeZone: context.timeZone))
        var parameters = ValueObject()
        for mapping in step.with {
            do {
                var value = try mapping.value.evaluate(in: context)
                if let schema = skill.parameters.property(mapping.name) {
                    value = coercion.coerce(value, to: schema)
                }
                if value != .null { parameters[mapping.name] = value }
            } catch {
                throw StepFailure(message: "parameter '\(mapping.name)': \(error.message)", kind: .validation, retryable: false)
            }
        }
        for property in skill.parameters.properties where parameters[property.name] == nil {
            if let value = property.schema.defaultValue { parameters[property.name] = value }
        }
        state.addSecrets(in: .object(parameters), schema: skill.parameters)
        var schema = skill.parameters
        if let driver, let listSchema = schema.property(driver.parameter) {
            schema = Schema(
                type: .object, properties: schema.properties.map { $0.name == driver.parameter ? ($0.name, listSchema.withoutMaxItems()) : $0 },
                required: schema.required, additionalProperties: schema.additionalProperties)
        }
        let violations = SchemaValidator.validate(.object(parameters), against: schema)
        guard violations.isEmpty else {
            let text = violations.map { violation in
                violation.path.isEmpty ? violation.predicate : "parameter '\(violation.path.rendered())' \(violation.predicate)"
            }
            throw StepFailure(message: state.redactor.redact(text.joined(separator: "; ")), kind: .validation, retryable: false)
        }
        return parameters
    }
}
