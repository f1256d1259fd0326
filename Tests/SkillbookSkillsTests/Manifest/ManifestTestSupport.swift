import Foundation
import SkillbookCore
import SkillbookSkills
import Testing
import SkillbookSystem

/// Loads one manifest from text, expecting no diagnostics.
func manifestSkill(
    _ yaml: String, runner: ProcessRunner = testRunner, workingDirectory: URL? = nil, manifestDirectory: URL? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> ManifestSkill {
    let loader = ManifestLoader(runner: runner, workingDirectory: workingDirectory?.path)
    let (skill, diagnostics) = loader.load(yaml, file: "Skills/test.yaml", manifestDirectory: manifestDirectory?.path)
    #expect(diagnostics.isEmpty, "\(diagnostics)", sourceLocation: sourceLocation)
    return try #require(skill, sourceLocation: sourceLocation)
}

/// The diagnostics of a manifest, as `LINE:COLUMN: error: message` (without the file name).
func manifestProblems(_ yaml: String) -> [String] {
    let (skill, diagnostics) = ManifestLoader(runner: testRunner).load(yaml, file: "Skills/x.yaml")
    if diagnostics.hasErrors { #expect(skill == nil) }
    return diagnostics.map { $0.description.replacingOccurrences(of: "Skills/x.yaml:", with: "") }
}

/// Runs a skill as the engine would: parameters checked against its schema first, the output
/// against its output schema afterwards.
func call(
    _ skill: some Skill, _ parameters: Value, context: SkillContext = SkillContext(runID: "run-7", stepID: "step-3"),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws -> Value {
    let parameters = params(parameters)
    let problems = SchemaValidator.validate(.object(parameters), against: skill.descriptor.parameters)
    #expect(problems.isEmpty, "test parameters invalid: \(problems)", sourceLocation: sourceLocation)
    let output = try await skill.run(parameters, context: context)
    let outputProblems = SchemaValidator.validate(output, against: skill.descriptor.output)
    #expect(outputProblems.isEmpty, "output breaks its own schema: \(outputProblems)", sourceLocation: sourceLocation)
    return output
}

/// Undoes a call made with `call`.
func undo(_ skill: some Skill, _ parameters: Value, output: Value) async throws {
    try await skill.compensate(
        CompletedCall(parameters: params(parameters), output: output), context: SkillContext(runID: "run-7", stepID: "step-3"))
}
