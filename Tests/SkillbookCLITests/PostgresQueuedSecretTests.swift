import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// `run --queue` of a playbook whose secret input comes from a provider: the queue records it
/// masked, the worker that claims the run reads it from its own providers, and a worker without
/// the provider fails the run with a clear error before any step.
@Suite struct PostgresQueuedSecretTests {
    @Test func theWorkerReadsTheSecretFromItsOwnProvider() async throws {
        let directory = SecretProviderTests.workspace("{ env: QUEUE_TOKEN }")
        let url = try await PostgresCluster.freshDatabase()
        let state = ["--state", url, "--playbooks", directory.playbooks.path]
        let first = try await runSkillbook(["run", "provided", "--queue"] + state, in: directory.url)
        #expect(first.code == 0, "\(first.err)")
        let lacking = try SkillbookChild(["worker", "--name", "lacking", "--poll", "0.2s"] + state, in: directory.url)
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let journal = try host.openJournal()
        #expect(await eventually(within: 30) { (try? await journal.runs(playbook: "provided", status: .failed, limit: 10).count) == 1 })
        kill(lacking.pid, SIGTERM)
        _ = try await lacking.waitForExit(upTo: 20)
        let failed = try #require(try await journal.runs(playbook: "provided", status: .failed, limit: 10).first)
        let timeline = try #require(try await journal.timeline(failed.id))
        #expect(timeline.calls.isEmpty, "no step ran")
        #expect(failed.error?.contains("the secret 'api' could not be read: the environment variable QUEUE_TOKEN is not set") == true, "\(failed.error ?? "")")

        let second = try await runSkillbook(["run", "provided", "--queue"] + state, in: directory.url)
        #expect(second.code == 0, "\(second.err)")
        let worker = try SkillbookChild(
            ["worker", "--name", "keeper", "--poll", "0.2s"] + state, in: directory.url, environment: ["QUEUE_TOKEN": "queued-s3cret-42"])
        #expect(await eventually(within: 30) { (try? await journal.runs(playbook: "provided", status: .succeeded, limit: 10).count) == 1 },
            "\(worker.transcript)")
        kill(worker.pid, SIGTERM)
        _ = try await worker.waitForExit(upTo: 20)
        let done = try #require(try await journal.runs(playbook: "provided", status: .succeeded, limit: 10).first)
        #expect(done.outputs?["shown"] == "k=*** ***")
        #expect(done.inputs["token"] == "***")
        let shown = try await runSkillbook(["runs", "show", done.id, "--json"] + state, in: directory.url)
        #expect(!shown.out.contains("queued-s3cret-42") && !shown.out.contains("QUEUED-S3CRET-42"))
        #expect(!worker.transcript.contains("queued-s3cret-42"))
    }
}
