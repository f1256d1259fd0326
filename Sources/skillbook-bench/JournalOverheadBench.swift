import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookStore

/// `engine_overhead_per_step_journal`: `engine_overhead_per_step` with the SQLite journal on, as
/// `skillbook run` records a run: every call written before and after it runs, every step's end,
/// the run's start and end, in the state database (WAL). `debug.echo` is a read-only skill, so its
/// calls are committed but not flushed to disk one by one (see `SQLiteJournal`).
struct JournalOverheadBench {
    var registry: SkillRegistry
    var state: URL
    var runs = 7

    func run() async throws -> Figure {
        let steps = StepsPlaybook.stepCount
        let text = StepsPlaybook.text(steps: steps)
        let loaded = PlaybookLoader(registry: registry).load(text, file: "bench-steps.yaml")
        guard let playbook = loaded.playbook else {
            throw BenchError("the 1,000-step playbook does not load: \(loaded.diagnostics.map(\.description))")
        }
        let registry = self.registry
        let journal = try SQLiteJournal(stateDirectory: state, syncsCall: { registry[$0]?.descriptor.kind != .query })
        let engine = Engine(registry: registry, recorder: journal)
        let inputs: ValueObject = ["seed": "hello"]
        let options = Engine.RunOptions(source: text)
        var lastRun = ""
        let seconds = try await Measure.best(runs: runs) {
            let result = await engine.run(playbook, inputs: inputs, options: options, onEvent: { _ in })
            guard result.status == .succeeded, result.outputs["last"] == "hello" else {
                throw BenchError("the 1,000-step run ended \(result.status.rawValue): \(result.error ?? "")")
            }
            lastRun = result.runID
        }
        guard try journal.calls(of: lastRun).count == steps, try journal.run(lastRun)?.status == .succeeded else {
            throw BenchError("the journal did not record every call of run \(lastRun)")
        }
        return Figure(name: "engine_overhead_per_step_journal", value: seconds * 1e6 / Double(steps), unit: "us/step")
    }
}

/// `journal_writes_per_step`: the journal's own share of a step, without the engine: what
/// `SQLiteJournal` does for one `debug.echo` step (call started, call finished, step finished),
/// averaged over a 1,000-step run.
struct JournalWritesBench {
    var state: URL
    var runs = 7

    func run() async throws -> Figure {
        let steps = StepsPlaybook.stepCount
        let journal = try SQLiteJournal(stateDirectory: state, syncsCall: { _ in false })
        var number = 0
        let seconds = try await Measure.best(runs: runs) {
            number += 1
            let runID = "journal-writes-\(number)"
            let started = Date()
            try journal.runStarted(
                RunRecord(
                    runID: runID, playbook: "bench-steps", source: "", sourceHash: "", inputs: ["seed": "hello"], trigger: "cli",
                    started: started, dryRun: false))
            for index in 0..<steps {
                let id = StepsPlaybook.id(index)
                let call = CallRecord(
                    runID: runID, key: CallKey(step: id), skill: "debug.echo", attempt: 1, parameters: ["value": "hello"],
                    started: Date())
                try journal.callStarted(call)
                try journal.callFinished(call, output: ["value": "hello"], error: nil, finished: Date())
                try journal.stepFinished(runID: runID, step: id, status: .succeeded, output: ["value": "hello"], error: nil)
            }
            try journal.runFinished(
                RunResult(runID: runID, playbook: "bench-steps", status: .succeeded, steps: [], started: started, finished: Date()))
        }
        return Figure(name: "journal_writes_per_step", value: seconds * 1e6 / Double(steps), unit: "us/step")
    }
}
