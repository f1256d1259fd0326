import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

/// The built-in skills over a fresh state directory, removed afterwards.
struct Harness {
    let directory: URL
    let environment: SkillEnvironment
    let registry: SkillRegistry
    let context = SkillContext(runID: "run-1", stepID: "step-1")

    func skill(_ id: String) throws -> any Skill {
        try #require(registry[id], "no built-in skill \(id)")
    }

    /// Runs a skill the way the engine would: parameters are checked against the parameter schema
    /// first (so a test cannot pass what the engine would reject), and the output against the
    /// output schema afterwards.
    func run(_ id: String, _ parameters: Value, context: SkillContext? = nil) async throws -> Value {
        let skill = try skill(id)
        let parameters = params(parameters)
        let parameterProblems = SchemaValidator.validate(.object(parameters), against: skill.descriptor.parameters)
        #expect(parameterProblems.isEmpty, "test parameters invalid: \(parameterProblems)")
        let output = try await skill.run(parameters, context: context ?? self.context)
        let outputProblems = SchemaValidator.validate(output, against: skill.descriptor.output)
        #expect(outputProblems.isEmpty, "\(id) output breaks its own schema: \(outputProblems)")
        return output
    }

    /// Runs a skill with parameters as a person or a model would write them: each is first coerced
    /// toward its schema by the shared `Coercion` (dates read at `now` in `timeZone`), as the engine
    /// does, and the skill runs in that time zone.
    func runCoerced(_ id: String, _ parameters: Value, now: Date, timeZone: TimeZone) async throws -> Value {
        let schema = try skill(id).descriptor.parameters
        let coercion = Coercion(dates: DateParser(now: now, timeZone: timeZone))
        var coerced = ValueObject()
        for (name, value) in params(parameters) {
            coerced[name] = schema.property(name).map { coercion.coerce(value, to: $0) } ?? value
        }
        return try await run(id, .object(coerced), context: SkillContext(runID: "run-1", stepID: "step-1", timeZone: timeZone))
    }
}

/// The zone with this IANA name.
func zone(_ identifier: String) throws -> TimeZone {
    try #require(TimeZone(identifier: identifier), "no time zone \(identifier)")
}

/// The instant an ISO 8601 date-time with `Z` or an offset names.
func instant(_ text: String) throws -> Date {
    try Date(text, strategy: .iso8601)
}

func withHarness<T>(
    clock: any WallClock = SystemClock(), ids: IDGenerator = .live, _ body: (Harness) async throws -> T
) async throws -> T {
    let temporary = TemporaryDirectory(prefix: "skillbook-skills-tests")
    let directory = temporary.url
    defer { withExtendedLifetime(temporary) {} }
    let environment = SkillEnvironment(stateDirectory: directory, clock: clock, ids: ids)
    let registry = try SkillRegistry(BuiltinSkills.all(environment: environment))
    return try await body(Harness(directory: directory, environment: environment, registry: registry))
}

/// A parameter object written as a literal (`ValueObject` has no literal syntax of its own).
func params(_ value: Value) -> ValueObject {
    value.objectValue ?? ValueObject()
}
