import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSkills
import SkillbookStore
import SkillbookTesting
import Testing

/// A state directory in temp with the built-in skills (plus any fakes) over it.
final class EngineFixture {
    let state: URL
    let environment: SkillEnvironment
    var registry: SkillRegistry
    let events = EventRecorder()
    let sleeps = Recorder<Double>()

    init(extra: [any Skill] = []) throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-engine-\(UUID().uuidString)")
        environment = SkillEnvironment(stateDirectory: state)
        registry = try SkillRegistry(BuiltinSkills.all(environment: environment) + extra)
    }

    deinit {
        try? FileManager.default.removeItem(at: state)
    }

    var notes: NotesStore { get throws { try environment.notesStore() } }

    func load(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Playbook {
        let result = PlaybookLoader(registry: registry).load(yaml, file: "test.yaml")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)", sourceLocation: sourceLocation)
        return try #require(result.playbook, sourceLocation: sourceLocation)
    }

    var engine: Engine { Engine(registry: registry, environment: .test(sleeps: sleeps)) }

    func run(_ yaml: String, inputs: ValueObject = ValueObject()) async throws -> RunResult {
        let playbook = try load(yaml)
        let resolved = try InputResolver(now: Date(timeIntervalSince1970: 1_796_033_700), timeZone: TimeZone(identifier: "UTC")!)
            .resolve(playbook, values: inputs)
        return await engine.run(playbook, inputs: resolved, onEvent: events.handler)
    }
}
