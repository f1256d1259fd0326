import SkillbookCore
import SkillbookRuntime

/// `batch_100k_items`: a 100,000-item playbook input pushed through a skill that takes at most 100
/// items per call and does nothing — 1,000 batches, outputs merged.
struct BatchBench {
    var registry: SkillRegistry
    var items = 100_000
    var runs = 5

    /// `bench.noop`: takes `items` (at most 100) and returns them as `ids`, like a batch-create skill
    /// returning what it made, so merging concatenates a list as well as collecting `batches`.
    struct NoopSkill: Skill {
        let descriptor = SkillDescriptor(
            id: "bench.noop",
            summary: "Does nothing with up to 100 items; returns them as { ids, count }.",
            kind: .query,
            parameters: .object(
                ["items": .array(.string(), "The items.", minItems: 1, maxItems: 100)], required: ["items"]),
            output: .object(
                ["ids": .array(.string(), "The items given."), "count": .integer("How many.")],
                required: ["ids", "count"]))

        func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
            let items = parameters["items"]?.arrayValue ?? []
            return ["ids": .array(items), "count": .int(items.count)]
        }
    }

    static let playbookText = """
        name: bench-batch
        description: Pushes a long list through a skill that takes 100 items per call.
        inputs:
          items: { type: array, items: { type: string } }
        steps:
          - id: push
            skill: bench.noop
            with:
              items: "${{ inputs.items }}"
        outputs:
          total: "${{ length(steps.push.output.ids) }}"
          batches: "${{ length(steps.push.output.batches) }}"

        """

    func run() async throws -> Figure {
        let loaded = PlaybookLoader(registry: registry).load(Self.playbookText, file: "bench-batch.yaml")
        guard let playbook = loaded.playbook else {
            throw BenchError("the batch playbook does not load: \(loaded.diagnostics.map(\.description))")
        }
        let list = (0..<items).map { Value.string("item-\($0)") }
        let inputs: ValueObject = ["items": .array(list)]
        let engine = Engine(registry: registry)
        let expectedBatches = (items + 99) / 100
        let seconds = try await Measure.best(runs: runs) {
            let result = await engine.run(playbook, inputs: inputs, onEvent: { _ in })
            guard result.status == .succeeded, result.outputs["total"] == .int(items),
                result.outputs["batches"] == .int(expectedBatches)
            else {
                throw BenchError("the batched run ended \(result.status.rawValue): \(result.error ?? "\(result.outputs)")")
            }
        }
        return Figure(name: "batch_100k_items", value: seconds * 1e3, unit: "ms")
    }
}
