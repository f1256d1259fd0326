import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import SkillbookSQLite

/// `approvals`: the cost of approvals that wait, on the SQLite state, through the host every front
/// end uses (`PlaybookHost.approve`, `approvals`).
///
/// - `approval_to_call_p50`: from `approve` being called on a waiting run (another run's, as
///   `skillbook approve` in another process would) to its approved step's confirmation answered,
///   the instant before its call starts: the decision written, the run taken over, its playbook
///   loaded and its resume planned. The median of 30.
/// - `approvals_list_1000_waiting`: `approvals()` with 1,000 runs waiting (recorded through the
///   journal as the engine records them: start, request, `waiting` end): the best of 5.
struct ApprovalsBench {
    let state: URL

    static let playbook = """
        name: gate
        steps:
          - { id: make, skill: notes.create, with: { title: "to delete" } }
          - { id: remove, skill: notes.delete, with: { ids: ["${{ steps.make.output.id }}"] } }

        """

    func run() async throws -> [Figure] {
        let folder = state.appendingPathComponent("approvals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try BenchWorkspace.write(Self.playbook, named: "gate", in: folder)
        let configuration = HostConfiguration(
            playbooksDirectory: folder.appendingPathComponent("Playbooks"), stateDirectory: folder.appendingPathComponent("state"),
            timeZone: TimeZone(identifier: "UTC"), confirmation: .wait, currentDirectory: folder)
        let host = PlaybookHost(configuration)
        return [try await approvalToCall(host), try await listing(host, state: configuration.stateDirectory)]
    }

    private func approvalToCall(_ host: PlaybookHost) async throws -> Figure {
        var samples: [Double] = []
        for _ in 0..<31 {
            let waiting = await host.execute(try await host.prepareRun(RunRequest(playbook: "gate")))
            guard waiting.status == .waiting else { throw BenchError("the gate run did not wait: \(waiting.status)") }
            let clock = ContinuousClock()
            let start = clock.now
            let answered = Answered()
            let outcome = try await host.approve(run: waiting.runID) { event in
                if case .confirmationAnswered(_, .approved) = event { answered.at(clock.now) }
            }
            guard case .ran(let result) = outcome.continuation, result.status == .succeeded, let at = answered.instant else {
                throw BenchError("the approved run did not go on: \(outcome.continuation)")
            }
            samples.append((at - start).seconds)
        }
        samples.removeFirst()  // the first pays for loading the skills
        samples.sort()
        return Figure(name: "approval_to_call_p50", value: samples[samples.count / 2] * 1000, unit: "ms")
    }

    private func listing(_ host: PlaybookHost, state: URL) async throws -> Figure {
        let journal = try SQLiteJournal(stateDirectory: state)
        let now = Date()
        for index in 0..<1000 {
            let id = "waiting-\(index)"
            try journal.runStarted(
                RunRecord(
                    runID: id, playbook: "gate", source: Self.playbook, sourceHash: SourceHash.of(Self.playbook), inputs: [:],
                    trigger: "schedule", started: now, dryRun: false))
            try journal.approvalRequested(
                ApprovalRequest(
                    runID: id, step: "remove", key: CallKey(step: "remove"), skill: "notes.delete", title: "Delete notes",
                    parameters: ["ids": [.string("n\(index)")]], touches: CallPreview(noun: "notes", items: ["to delete (n\(index))"]), calls: 1,
                    requested: now, expires: now.addingTimeInterval(86_400)))
            let result = RunResult(
                runID: id, playbook: "gate", status: .waiting, interrupted: false, outputs: [:], steps: [], error: nil, started: now,
                finished: now)
            try journal.runFinished(result)
        }
        var count = 0
        let seconds = try await Measure.best(runs: 5) { count = try await host.approvals().count }
        guard count == 1000 else { throw BenchError("approvals listed \(count) runs, not 1000") }
        return Figure(name: "approvals_list_1000_waiting", value: seconds * 1000, unit: "ms")
    }
}

/// When the approved step's confirmation was answered (set once, from the engine's task).
private final class Answered: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ContinuousClock.Instant?

    func at(_ instant: ContinuousClock.Instant) {
        lock.lock()
        defer { lock.unlock() }
        if value == nil { value = instant }
    }

    var instant: ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
