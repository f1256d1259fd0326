import SkillbookCore

/// `load_check_1000_steps`: `PlaybookLoader.load` (YAML, decoding and checking) of the 1,000-step text.
struct LoadCheckBench {
    var registry: SkillRegistry
    var runs = 10

    func run() async throws -> Figure {
        let text = StepsPlaybook.text()
        let loader = PlaybookLoader(registry: registry)
        let seconds = try await Measure.best(runs: runs) {
            let result = loader.load(text, file: "bench-steps.yaml")
            guard result.playbook != nil, result.diagnostics.isEmpty else {
                throw BenchError("the 1,000-step playbook does not load cleanly: \(result.diagnostics.map(\.description))")
            }
        }
        return Figure(name: "load_check_1000_steps", value: seconds * 1e3, unit: "ms")
    }
}
