import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookStore

/// `engine_overhead_per_step_journal`: `engine_overhead_per_step` with the SQLite journal on, as
/// `skillbook run` records a run: every call with its result, every step's end, the run's start
/// and end, in the state database (WAL). `debug.echo` is a read-only skill, so its records are
/// group-committed (see `SQLiteJournal`, "Writes"); `journal_action_call` is the price of a call
/// with effects.
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
        let journal = try SQLiteJournal(stateDirectory: state)
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
        let calls = try journal.calls(of: lastRun)
        guard calls.count == steps, calls.allSatisfy({ $0.output == ["value": "hello"] }),
            try journal.steps(of: lastRun).count == steps, try journal.run(lastRun)?.status == .succeeded
        else {
            throw BenchError("the journal did not record every call and step of run \(lastRun)")
        }
        return Figure(name: "engine_overhead_per_step_journal", value: seconds * 1e6 / Double(steps), unit: "us/step")
    }
}

/// `journal_writes_per_step`: the journal's own share of a step, without the engine: what
/// `SQLiteJournal` does for one `debug.echo` step (call started, call finished, step finished),
/// averaged over a 1,000-step run, group commits included.
struct JournalWritesBench {
    var state: URL
    var runs = 7

    func run() async throws -> Figure {
        let steps = StepsPlaybook.stepCount
        let journal = try SQLiteJournal(stateDirectory: state)
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
                    started: Date(), hasEffects: false)
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

/// `journal_action_call`: what the journal adds to one call of an action (a skill with effects):
/// its start committed and flushed to disk before the call, its result after, the step's end
/// queued; averaged over 200 calls. Mostly the disk's flush (fsync), twice.
struct JournalActionCallBench {
    var state: URL
    var runs = 3

    func run() async throws -> Figure {
        let calls = 200
        let journal = try SQLiteJournal(stateDirectory: state)
        var number = 0
        let seconds = try await Measure.best(runs: runs) {
            number += 1
            let runID = "journal-actions-\(number)"
            let started = Date()
            try journal.runStarted(
                RunRecord(
                    runID: runID, playbook: "bench-actions", source: "", sourceHash: "", inputs: [:], trigger: "cli",
                    started: started, dryRun: false))
            for index in 0..<calls {
                let id = StepsPlaybook.id(index)
                let call = CallRecord(
                    runID: runID, key: CallKey(step: id), skill: "notes.create", attempt: 1, parameters: ["title": "hello"],
                    started: Date(), hasEffects: true)
                try journal.callStarted(call)
                try journal.callFinished(call, output: ["id": .int(index)], error: nil, finished: Date())
                try journal.stepFinished(runID: runID, step: id, status: .succeeded, output: ["id": .int(index)], error: nil)
            }
            try journal.runFinished(
                RunResult(runID: runID, playbook: "bench-actions", status: .succeeded, steps: [], started: started, finished: Date()))
        }
        return Figure(name: "journal_action_call", value: seconds * 1e6 / Double(calls), unit: "us/call")
    }
}
