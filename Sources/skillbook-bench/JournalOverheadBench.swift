import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookSQL

/// `engine_overhead_per_step_journal`: `engine_overhead_per_step` with the SQLite journal on, opened
/// through the backend as the host opens it (its I/O on the state's own threads), as `skillbook run`
/// records a run: every call with its result, every step's end, the run's start
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
        let journal = try SQLiteState.backend(stateDirectory: state).openJournal()
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
        let calls = try await journal.calls(of: lastRun)
        guard calls.count == steps, calls.allSatisfy({ $0.output == ["value": "hello"] }),
            try await journal.steps(of: lastRun).count == steps, try await journal.run(lastRun)?.status == .succeeded
        else {
            throw BenchError("the journal did not record every call and step of run \(lastRun)")
        }
        return Figure(name: "engine_overhead_per_step_journal", value: seconds * 1e6 / Double(steps), unit: "us/step")
    }
}

/// The journal's own writes for a run of one-call steps, without the engine, through the backend as
/// the host opens it: run started, each
/// call started and finished and its step's end, run finished; the best of `runs` runs, in seconds.
struct JournalWrites {
    var state: URL
    var runs: Int
    var playbook: String
    var steps: Int
    /// The skill of every call, and whether it has effects (its records are then flushed to disk).
    var skill: String
    var hasEffects: Bool

    func measure() async throws -> Double {
        let journal = try SQLiteState.backend(stateDirectory: state).openJournal()
        var number = 0
        return try await Measure.best(runs: runs) {
            number += 1
            let runID = "\(playbook)-\(number)"
            let started = Date()
            try await journal.runStarted(
                RunRecord(
                    runID: runID, playbook: playbook, source: "", sourceHash: "", inputs: ["seed": "hello"], trigger: .cli,
                    started: started, dryRun: false))
            for index in 0..<steps {
                let id = StepsPlaybook.id(index)
                let call = CallRecord(
                    runID: runID, key: CallKey(step: StepPath(step: id)), skill: skill, attempt: 1, parameters: ["value": "hello"],
                    started: Date(), hasEffects: hasEffects)
                try await journal.callStarted(call)
                try await journal.callFinished(call, output: ["value": "hello"], error: nil, finished: Date())
                try await journal.stepFinished(
                    runID: runID, step: id, status: .succeeded, output: ["value": "hello"], outputMasked: false, error: nil)
            }
            try await journal.runFinished(
                RunResult(runID: runID, playbook: playbook, status: .succeeded, steps: [], started: started, finished: Date()))
        }
    }
}

/// `journal_writes_per_step`: the journal's own share of a step, without the engine: what
/// `SQLiteJournal` does for one `debug.echo` step (call started, call finished, step finished),
/// averaged over a 1,000-step run, group commits included.
struct JournalWritesBench {
    var state: URL

    func run() async throws -> Figure {
        let steps = StepsPlaybook.stepCount
        let seconds = try await JournalWrites(
            state: state, runs: 7, playbook: "journal-writes", steps: steps, skill: "debug.echo", hasEffects: false
        ).measure()
        return Figure(name: "journal_writes_per_step", value: seconds * 1e6 / Double(steps), unit: "us/step")
    }
}

/// `journal_action_call`: what the journal adds to one call of an action (a skill with effects):
/// its start committed and flushed to disk before the call, its result after, the step's end
/// queued; averaged over 200 calls. Mostly the disk's flush (fsync), twice.
struct JournalActionCallBench {
    var state: URL

    func run() async throws -> Figure {
        let calls = 200
        let seconds = try await JournalWrites(
            state: state, runs: 3, playbook: "journal-actions", steps: calls, skill: "notes.create", hasEffects: true
        ).measure()
        return Figure(name: "journal_action_call", value: seconds * 1e6 / Double(calls), unit: "us/call")
    }
}
