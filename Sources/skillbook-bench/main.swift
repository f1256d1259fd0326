import Foundation
import SkillbookCore
import SkillbookSkills

// skillbook-bench: prints `name value unit` lines (see each benchmark's file). Build in release:
//     swift build -c release --product skillbook-bench && .build/release/skillbook-bench

let state = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-bench-\(UUID().uuidString)")

func runBenchmarks(state: URL) async throws {
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    var registry = try SkillRegistry(BuiltinSkills.all(environment: SkillEnvironment(stateDirectory: state)))
    try registry.register(BatchBench.NoopSkill())

    let benchmarks: [() async throws -> Figure] = [
        { try await EngineOverheadBench(registry: registry).run() },
        { try await BatchBench(registry: registry).run() },
        { try await LoadCheckBench(registry: registry).run() },
        { try await YAMLThroughputBench().run() },
    ]
    for benchmark in benchmarks {
        print(try await benchmark().line)
    }
}

do {
    try await runBenchmarks(state: state)
    try? FileManager.default.removeItem(at: state)
} catch {
    try? FileManager.default.removeItem(at: state)
    FileHandle.standardError.write(Data("skillbook-bench: \(error)\n".utf8))
    exit(1)
}
