import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite

// skillbook-bench [--cpu] [NAME…]: prints `name value unit` lines (see each benchmark's file); with
// names, only the benchmarks whose figure is one of them or, for a name that is no figure's whole
// name, starts with it (`skillbook-bench engine yaml`); with `--cpu`, CPU time instead of elapsed
// time (see `Measure`). Build in release: `make bench` (`cold_start` also needs `skillbook` and
// `skillbook-floor` built in release next to the bench; see `ColdStartBench`). `skillbook-bench agent`
// prints the agent's figures; `skillbook-bench agent_routing` the matcher's on both halves of its routing set; `skillbook-bench schedule` the daemon's (it needs the release `skillbook`);
// `skillbook-bench console` the web console's (it needs the release `skillbook`); `skillbook-bench postgres` the queue's (its kill -9 failover needs the release `skillbook` too);
// `skillbook-bench secrets` what taint and masking cost (see `SecretsBench`);
// `skillbook-bench history` the history's (only when named; see `HistoryBench`);
// `skillbook-bench postgres --soak 10000 [--kill-every 3]` only the soak (see `PostgresSoakBench`).

let state = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-bench-\(UUID().uuidString)")

func runBenchmarks(state: URL) async throws {
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    var registry = try SkillRegistry(BuiltinSkills.all(environment: SkillEnvironment(stateDirectory: state, stores: .sqlite(stateDirectory: state))))
    try registry.register(BatchBench.NoopSkill())

    let benchmarks: [(name: String, run: () async throws -> [Figure])] = [
        // First, while the machine is quiet: whole processes, timed against the floor.
        ("cold_start", { try ColdStartBench(state: state).run() }),
        ("big_value", { try BigValueBench(state: state).run() }),
        ("engine_overhead_per_step", { [try await EngineOverheadBench(registry: registry).run()] }),
        ("engine_overhead_per_step_journal", { [try await JournalOverheadBench(registry: registry, state: state).run()] }),
        ("journal_writes_per_step", { [try await JournalWritesBench(state: state).run()] }),
        ("journal_action_call", { [try await JournalActionCallBench(state: state).run()] }),
        ("batch_100k_items", { [try await BatchBench(registry: registry).run()] }),
        ("load_check_1000_steps", { [try await LoadCheckBench(registry: registry).run()] }),
        // Taint and masking: a 1,000-step chain derived from an ordinary and from a secret input, and masking 1 MiB (see SecretsBench).
        ("secrets", { try await SecretsBench(registry: registry).run() }),
        ("yaml_throughput", { try await YAMLThroughputBench().run() }),
        // Every text function on 10⁶-character inputs built to expose quadratic work (see StringFunctionsBench).
        ("string_functions", { try await StringFunctionsBench().run() }),
        ("schedule_next_fire", { [try await ScheduleNextFireBench().run()] }),
        // The real daemon: fire latency, then idle CPU and RSS with 100 schedules (see ScheduleDaemonBench).
        ("schedule", { try ScheduleDaemonBench(state: state).run() }),
        // Approvals that wait, on SQLite through the host: approve → call started, and listing 1,000 (see ApprovalsBench);
        // approve → call started in a running daemon and through a PostgreSQL worker (see ApprovalHandOverBench).
        ("approvals", { try await ApprovalsBench(state: state).run() + ApprovalHandOverBench(state: state).run() }),
        // The agent's four figures (top-1, uncovered refused, decision p50/p95 over 200 skills) come from one pass.
        ("agent", { try AgentRoutingBench(registry: registry).run() }),
        // The matcher's generalisation: both halves of the routing set (see AgentRoutingSetBench).
        ("agent_routing", { try AgentRoutingSetBench(shipped: AgentRoutingBench(registry: registry)).run() }),
        // The model as a second opinion on the routing set's rows where the matcher is unsure (see AgentSecondOpinionBench).
        ("agent_second_opinion", {
            try await AgentSecondOpinionBench(shipped: AgentRoutingBench(registry: registry)).run(environment: ProcessInfo.processInfo.environment)
        }),
        // The queue on a throw-away local PostgreSQL: throughput, enqueue→start latency, failover (see PostgresBench).
        ("postgres", { try await PostgresBench(state: state).run() }),
        // Reading the history at 1k…1M runs, SQLite then PostgreSQL (see HistoryBench); not in the default pass.
        ("history", { try await HistoryBench(state: state).run() }),
        // The console (the release `skillbook serve`) over 100,000 runs: API times, SSE, idle cost (see ConsoleBench).
        ("console", { try await ConsoleBench(state: state).run() }),
        // The planner against a real model (`make model`; `make eval-agent`): skipped without SKILLBOOK_MODEL_URL.
        ("agent_model", { try await AgentModelBench(state: state).run(environment: ProcessInfo.processInfo.environment) }),
    ]
    let chosen = CommandLine.arguments.dropFirst().filter { $0 != "--cpu" }
    // A name given in full runs only that figure; otherwise a name selects every figure it starts.
    let exact = Set(chosen).intersection(benchmarks.map(\.name))
    // Run only when named: minutes of filling journals.
    let onlyWhenNamed: Set = ["history"]
    for benchmark in benchmarks
    where (chosen.isEmpty && !onlyWhenNamed.contains(benchmark.name)) || exact.contains(benchmark.name)
        || chosen.contains(where: { !exact.contains($0) && benchmark.name.hasPrefix($0) })
    {
        for figure in try await benchmark.run() { print(figure.line) }
    }
}

/// `--soak N [--kill-every SECONDS]`: only the PostgreSQL soak (see `PostgresSoakBench`).
func soakArguments() throws -> PostgresSoakBench? {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let index = arguments.firstIndex(of: "--soak") else { return nil }
    guard index + 1 < arguments.count, let runs = Int(arguments[index + 1]), runs > 0 else {
        throw BenchError("--soak expects a number of runs, such as --soak 10000")
    }
    var killEvery = 3.0
    if let at = arguments.firstIndex(of: "--kill-every") {
        guard at + 1 < arguments.count, let seconds = Double(arguments[at + 1]), seconds > 0 else {
            throw BenchError("--kill-every expects seconds, such as --kill-every 3")
        }
        killEvery = seconds
    }
    return PostgresSoakBench(state: state, runs: runs, killEvery: killEvery)
}

do {
    if let soak = try soakArguments() {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        for figure in try await soak.run() { print(figure.line) }
        try? FileManager.default.removeItem(at: state)
        exit(0)
    }
    try await runBenchmarks(state: state)
    try? FileManager.default.removeItem(at: state)
} catch {
    try? FileManager.default.removeItem(at: state)
    FileHandle.standardError.write(Data("skillbook-bench: \(error)\n".utf8))
    exit(1)
}
