import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSQL
import SkillbookPostgres
import SkillbookSQLite
import SkillbookTesting
import Testing

/// A worker takes over a run whose worker died during `notes.create` (neither idempotent nor
/// read-only: nothing says whether the note was made), on a real PostgreSQL state: by default the
/// run waits for a person; with `on_worker_loss: rollback` the taking worker undoes what the run
/// completed and names the call it cannot undo. In `make test`'s serial pass (a worker with short
/// leases in this process needs the cooperative pool, which the parallel pass starves).
@Suite(.serialized) struct WorkerLossTests {
    static func playbook(_ policy: String?) -> String {
        """
        name: two-notes
        \(policy.map { "on_worker_loss: \($0)\n" } ?? "")steps:
          - { id: first, skill: notes.create, with: { title: first } }
          - { id: second, skill: notes.create, with: { title: second } }

        """
    }

    struct Outcome {
        var run: JournalRun
        var timeline: RunTimeline
        var notes: [String]
        var log: [String]
    }

    /// Queues the run, lets a worker that then "dies" record `first` done and start `second` (and
    /// make its note), then runs a real worker until it has dealt with the run.
    func takeOver(policy: String?, until done: @escaping @Sendable (JournalRun) -> Bool) async throws -> Outcome {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/two-notes.yaml", Self.playbook(policy))
        let url = try await PostgresCluster.freshDatabase()
        var configuration = HostConfiguration.workspace(in: directory.url, environment: [:], state: url)
        let host = PlaybookHost(configuration)
        let runID = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))

        let database = try PostgresDatabase(#require(PostgresURL(url)))
        let dead = PostgresJournal(database: database, heartbeatInterval: 3600, leaseDuration: 0.3, worker: "dead")
        let claimed = try #require(try dead.claimNext())
        #expect(claimed.run.id == runID)
        let notes = try host.persistence.stores.notes()
        let made = try await notes.create(title: "first", body: "", tags: [])
        let first = CallRecord(
            runID: runID, key: CallKey(step: StepPath(parsing: "first")), skill: "notes.create", attempt: 1, parameters: ["title": "first"],
            started: Date())
        try dead.callStarted(first)
        try dead.callFinished(first, output: ["id": .string(made.id), "title": "first"], error: nil, finished: Date())
        try dead.stepFinished(runID: runID, step: "first", status: .succeeded, output: nil, outputMasked: false, error: nil)
        try dead.callStarted(
            CallRecord(
                runID: runID, key: CallKey(step: StepPath(parsing: "second")), skill: "notes.create", attempt: 1,
                parameters: ["title": "second"], started: Date()))
        _ = try await notes.create(title: "second", body: "", tags: [])  // it happened; the journal will never know

        configuration.persistence = .postgres(url, leases: LeaseSettings(heartbeatInterval: 0.2, leaseDuration: 5), worker: "rescuer")
        let log = Recorder<String>()
        let worker = try QueueWorker(
            host: PlaybookHost(configuration), options: WorkerOptions(concurrency: 1, name: "rescuer", pollInterval: 0.1),
            log: { log.append($0) })
        let serving = Task { await worker.run() }
        let reader = PostgresJournal(database: database)
        let settled = await eventually(within: 45) {
            guard let run = try? reader.run(runID), run.worker == "rescuer" else { return false }
            return done(run) && worker.runningCount == 0
        }
        serving.cancel()
        await serving.value
        #expect(settled, "\(log.values)")
        let timeline = try #require(try reader.timeline(runID))
        let titles = try await notes.list(tag: nil, limit: 10).map(\.title).sorted()
        return Outcome(run: timeline.run, timeline: timeline, notes: titles, log: log.values)
    }

    @Test func byDefaultTheRunWaitsForAPerson() async throws {
        let outcome = try await takeOver(policy: nil) { $0.status == .interrupted }
        #expect(outcome.run.status == .interrupted)
        #expect(outcome.notes == ["first", "second"], "nothing undone")
        #expect(outcome.timeline.compensations.isEmpty)
        #expect(outcome.timeline.sessions.map(\.kind) == ["worker", "takeover"])
        #expect(outcome.timeline.sessions.map(\.outcome) == ["interrupted", "abandoned"])
        let id = outcome.run.id
        #expect(
            outcome.log.contains {
                $0.hasPrefix("run not continued two-notes run=\(id) reason=run \(id) stopped during second (notes.create) on a worker that died")
                    && $0.hasSuffix("'skillbook resume \(id.prefix(8))' or 'skillbook rollback \(id.prefix(8))' decides")
            }, "\(outcome.log)")
    }

    @Test func withOnWorkerLossRollbackTheTakingWorkerUndoesWhatCompleted() async throws {
        let outcome = try await takeOver(policy: "rollback") { $0.status == .rollbackIncomplete }
        #expect(outcome.run.status == .rollbackIncomplete)
        #expect(outcome.notes == ["second"], "the first note undone; the second, never recorded, is left for a person to check")
        #expect(outcome.timeline.compensations.map(\.key.step.description) == ["first"])
        #expect(outcome.timeline.compensations.map(\.error) == [nil])
        let error = try #require(outcome.run.error)
        #expect(error.hasPrefix("the result of second (notes.create), started "), "\(error)")
        #expect(error.hasSuffix("was never recorded (its worker died during the call), so it cannot be undone; check by hand whether it took effect"))
        #expect(outcome.timeline.sessions.map(\.kind) == ["worker", "takeover"])
        #expect(outcome.timeline.sessions.last?.outcome == "rollback_incomplete")
        let id = outcome.run.id
        #expect(outcome.log.contains { $0.hasPrefix("rolling back two-notes run=\(id): its worker died during a call") }, "\(outcome.log)")
        #expect(outcome.log.contains { $0.hasPrefix("run finished two-notes run=\(id) status=rollback_incomplete error=the result of second") })
    }
}
