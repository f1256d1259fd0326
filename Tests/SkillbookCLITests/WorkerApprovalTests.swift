import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookPostgres
import SkillbookSQL
import SkillbookTesting
import Testing

/// Issue 24 item 1 on PostgreSQL: a real `skillbook worker` meets a confirmation, the run waits
/// holding no lease, `skillbook approve` in another process hands it back, and a worker finishes it.
@Suite(.serialized) struct WorkerApprovalTests {
    static let playbook = """
        name: gated
        steps:
          - { id: make, skill: notes.create, with: { title: "to delete" } }
          - { id: remove, skill: notes.delete, with: { ids: ["${{ steps.make.output.id }}"] } }

        """

    @Test func aWorkersRunWaitsAndAnotherProcessApprovesItForAWorkerToFinish() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/gated.yaml", Self.playbook)
        let url = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let runID = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))
        let worker = try SkillbookChild(
            ["worker", "--state", url, "--name", "w1"] + WorkerTests.fast, in: directory.url)
        defer { kill(worker.pid, SIGKILL) }

        let journal = try host.openJournal()
        let waited = await eventually(within: 60) { (try? await journal.run(runID))??.status == .waiting }
        try #require(waited, "\(worker.transcript)")
        let database = try PostgresDatabase(#require(PostgresURL(url)))
        let lease = try database.query("SELECT lease_expires FROM runs WHERE id = $1", [.text(runID)]).first
        #expect(lease != nil && lease?.double("lease_expires") == nil, "no lease while it waits")
        // Its make step held 'notes': let go before the run said it waits.
        let locks = try database.query("SELECT count(*) AS n FROM resource_locks WHERE run = $1", [.text(runID)]).first?.int("n")
        #expect(locks == 0, "no resource lock while it waits")
        let listed = try await runSkillbook(["approvals", "--json", "--state", url], in: directory.url)
        #expect(listed.out.contains("\"run\" : \"\(runID)\"") || listed.out.contains("\"run\": \"\(runID)\""), "\(listed.out)")

        let approved = try await runSkillbook(["approve", String(runID.prefix(8)), "--yes", "--state", url], in: directory.url)
        #expect(approved.code == 0, "\(approved.err)")
        #expect(approved.err.contains("is queued again; a worker goes on with it"), "\(approved.err)")
        let finished = await eventually(within: 60) { (try? await journal.run(runID))??.status == .succeeded }
        #expect(finished, "\(worker.transcript)")
        let calls = try await journal.calls(of: runID)
        #expect(calls.map(\.key.step.description) == ["make", "remove"], "each call once")
        kill(worker.pid, SIGTERM)
        _ = try await worker.waitForExit(upTo: 30)
    }

    @Test func anExpiredRequestIsDeclinedByAnIdleWorkerAndRolledBack() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "Playbooks/gated.yaml", Self.playbook.replacingOccurrences(of: "name: gated\n", with: "name: gated\napproval: { timeout: 1s }\n"))
        let url = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let runID = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))
        let worker = try SkillbookChild(["worker", "--state", url, "--name", "w1"] + WorkerTests.fast, in: directory.url)
        defer { kill(worker.pid, SIGKILL) }
        let journal = try host.openJournal()
        // Nobody lists or decides: the idle worker finds the request expired, and a worker rolls the run back.
        let rolledBack = await eventually(within: 60) { (try? await journal.run(runID))??.status == .rolledBack }
        #expect(rolledBack, "\(worker.transcript)")
        #expect(worker.stderr.text.contains("approval expired gated run=\(runID) step=remove"), "\(worker.transcript)")
        let approvals = try #require(host.persistence.approvals(journal))
        #expect(try await approvals.approvals(ofRun: runID).last?.decision?.verdict == .expired)
        #expect(try await journal.calls(of: runID).filter { $0.key.step.description == "remove" }.isEmpty, "the call never ran")
        kill(worker.pid, SIGTERM)
        _ = try await worker.waitForExit(upTo: 30)
    }

    @Test func aDeclineFromAnotherProcessIsRolledBackByAWorker() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/gated.yaml", Self.playbook)
        let url = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let runID = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))
        let worker = try SkillbookChild(["worker", "--state", url, "--name", "w1"] + WorkerTests.fast, in: directory.url)
        defer { kill(worker.pid, SIGKILL) }
        let journal = try host.openJournal()
        let waited = await eventually(within: 60) { (try? await journal.run(runID))??.status == .waiting }
        try #require(waited, "\(worker.transcript)")
        let declined = try await runSkillbook(
            ["decline", String(runID.prefix(8)), "--reason", "not this one", "--state", url], in: directory.url)
        #expect(declined.code == 0, "\(declined.err)")
        #expect(declined.err.contains("is queued again; a worker goes on with it"), "\(declined.err)")
        let rolledBack = await eventually(within: 60) { (try? await journal.run(runID))??.status == .rolledBack }
        #expect(rolledBack, "\(worker.transcript)")
        #expect(try await journal.run(runID)?.error?.hasSuffix(": not this one") == true)
        #expect(try await journal.calls(of: runID).filter { $0.key.step.description == "remove" }.isEmpty, "the call never ran")
        kill(worker.pid, SIGTERM)
        _ = try await worker.waitForExit(upTo: 30)
    }
}
