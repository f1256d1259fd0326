import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSkills
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A state directory in temp with the built-in skills (plus any fakes) over it.
final class EngineFixture {
    let state: URL
    let environment: SkillEnvironment
    var registry: SkillRegistry
    let events = EventRecorder()
    let sleeps = Recorder<Double>()

    /// Playbooks that steps can run as sub-playbooks, by name.
    var library: [String: String] = [:]
    var confirmer: any Confirmer = RefusingConfirmer()
    var recorder: (any RunRecorder)?
    var journalValueLimit = JournalValueLimit.standard
    let resources = ResourceLocks()

    /// - Parameter replacing: built-in skills to swap for test doubles, given the real ones.
    /// - Parameter workspace: the current directory file skills work in (and may touch), if any.
    init(
        extra: [any Skill] = [], workspace: URL? = nil, replacing: (any Skill) -> (any Skill)? = { _ in nil }
    ) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-engine-\(UUID().uuidString)")
        self.state = state
        environment = SkillEnvironment(
            stateDirectory: state, currentDirectory: workspace, allowedRoots: workspace.map { [$0, state] })
        let builtins = BuiltinSkills.all(environment: environment).map { replacing($0) ?? $0 }
        registry = try SkillRegistry(builtins + extra)
    }

    deinit {
        try? FileManager.default.removeItem(at: state)
    }

    var notes: NotesStore { get throws { try environment.sqliteNotes() } }

    func load(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Playbook {
        let sources = library
        let playbooks = PlaybookLibrary(
            source: { name in sources[name].map { ($0, "\(name).yaml") } }, names: { Array(sources.keys) })
        let result = PlaybookLoader(registry: registry, library: playbooks).load(yaml, file: "test.yaml")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)", sourceLocation: sourceLocation)
        return try #require(result.playbook, sourceLocation: sourceLocation)
    }

    var engine: Engine {
        Engine(
            registry: registry, environment: .test(sleeps: sleeps), confirmer: confirmer, resources: resources,
            recorder: recorder, journalValueLimit: journalValueLimit)
    }

    func run(_ yaml: String, inputs: ValueObject = ValueObject(), dryRun: Bool = false) async throws -> RunResult {
        let playbook = try load(yaml)
        let resolved = try InputResolver(now: Date(timeIntervalSince1970: 1_796_033_700), timeZone: TimeZone(identifier: "UTC")!)
            .resolve(playbook, values: inputs)
        return await engine.run(playbook, inputs: resolved, dryRun: dryRun, onEvent: events.handler)
    }

    /// Every note in the store, in list order, for before/after comparisons.
    func snapshot() throws -> [Note] {
        try notes.list(tag: nil, limit: 100_000)
    }
}

/// Wraps a skill and fails its `n`-th call (1-based) before doing anything: a fault injected mid-step.
struct FailingCall: Skill {
    let inner: any Skill
    let failing: Set<Int>
    let calls = Recorder<Int>()

    init(_ inner: any Skill, failingCalls: Set<Int>) {
        self.inner = inner
        self.failing = failingCalls
    }

    var descriptor: SkillDescriptor { inner.descriptor }

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        calls.append(1)
        let number = calls.values.count
        if failing.contains(number) { throw SkillError("injected failure in call \(number)") }
        return try await inner.run(parameters, context: context)
    }

    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        try await inner.compensate(call, context: context)
    }
}
