import SkillbookCore
import SkillbookRuntime

/// `engine_overhead_per_step`: the whole cost of `Engine.run` per `debug.echo` step of the
/// 1,000-step chain, with a no-op event handler.
struct EngineOverheadBench {
    var registry: SkillRegistry
    var runs = 7

    func run() async throws -> Figure {
        let steps = StepsPlaybook.stepCount
        let loaded = PlaybookLoader(registry: registry).load(StepsPlaybook.text(steps: steps), file: "bench-steps.yaml")
        guard let playbook = loaded.playbook else {
            throw BenchError("the 1,000-step playbook does not load: \(loaded.diagnostics.map(\.description))")
        }
        let engine = Engine(registry: registry)
        let inputs: ValueObject = ["seed": "hello"]
        let seconds = try await Measure.best(runs: runs) {
            let result = await engine.run(playbook, inputs: inputs, onEvent: { _ in })
            guard result.status == .succeeded, result.outputs["last"] == "hello" else {
                throw BenchError("the 1,000-step run ended \(result.status.rawValue): \(result.error ?? "")")
            }
        }
        return Figure(name: "engine_overhead_per_step", value: seconds * 1e6 / Double(steps), unit: "us/step")
    }
}
