import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSystem
import SkillbookTesting
import Testing

/// `--metrics ADDR` on `daemon`, `worker` and `serve`, as real processes scraped over 127.0.0.1
/// and parsed by the official Prometheus client's parser.
@Suite(.serialized) struct MetricsCommandTests {
    static let pulse = """
        name: pulse
        schedule: { every: 1s }
        steps:
          - { id: save, skill: notes.create, with: { title: pulse } }
        """
    static let broken = """
        name: broken-pulse
        schedule: { every: 1s }
        steps:
          - { id: save, skill: notes.create, with: { title: undone } }
          - { id: fail, skill: debug.fail, with: { message: on purpose } }
        """

    /// Deleting a note asks for confirmation: fired by the daemon, the run waits for an approval.
    static let tidy = """
        name: tidy
        schedule: { every: 1s }
        steps:
          - { id: purge, skill: notes.delete, with: { ids: [n1] } }
        """

    @Test func theDaemonCountsRunsStepsAndFiresInTheExpositionFormat() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/pulse.yaml", Self.pulse)
        directory.write("Playbooks/broken-pulse.yaml", Self.broken)
        directory.write("Playbooks/tidy.yaml", Self.tidy)
        let before = Date().timeIntervalSince1970
        let daemon = try SkillbookChild(
            ["daemon", "--metrics", "127.0.0.1:0", "--state", directory.state.path], in: directory.url)
        defer { kill(daemon.pid, SIGTERM) }
        let finished = await eventually(within: 30) {
            daemon.stderr.text.contains("run finished pulse ") && daemon.stderr.text.contains("run finished broken-pulse ")
                && daemon.stderr.text.contains("run finished tidy ")
        }
        try #require(finished, "\(daemon.transcript)")
        let url = try #require(metricsURL(in: daemon.stderr.text), "\(daemon.transcript)")
        #expect(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/metrics"))

        let scrape = try await MetricsScrape.scrape(url)
        #expect(scrape.contentType == "text/plain; version=0.0.4; charset=utf-8")
        #expect(scrape.types["skillbook_runs_started"] == "counter")
        #expect(scrape.types["skillbook_run_duration_seconds"] == "histogram")
        #expect(scrape.types["skillbook_fires"] == "counter")
        #expect(try #require(scrape.value("skillbook_runs_started_total", ["playbook": "pulse", "trigger": "schedule"])) >= 1)
        #expect(try #require(scrape.value("skillbook_runs_finished_total", ["playbook": "pulse", "status": "succeeded"])) >= 1)
        #expect(try #require(scrape.value("skillbook_runs_finished_total", ["playbook": "broken-pulse", "status": "rolled_back"])) >= 1)
        #expect(try #require(scrape.value("skillbook_steps_total", ["skill": "notes.create", "status": "succeeded"])) >= 1)
        #expect(try #require(scrape.value("skillbook_steps_total", ["skill": "debug.fail", "status": "failed"])) >= 1)
        #expect(try #require(scrape.value("skillbook_fires_total", ["playbook": "pulse", "outcome": "on_time"])) >= 1)
        let count = try #require(scrape.value("skillbook_run_duration_seconds_count", ["playbook": "pulse"]))
        #expect(scrape.value("skillbook_run_duration_seconds_bucket", ["playbook": "pulse", "le": "+Inf"]) == count)
        #expect(try #require(scrape.value("skillbook_run_duration_seconds_bucket", ["playbook": "pulse", "le": "60"])) == count)
        let started = try #require(scrape.value("process_start_time_seconds"))
        #expect(started >= before.rounded(.down) - 1 && started <= Date().timeIntervalSince1970, "\(started) vs \(before)")
        #expect(scrape.value("skillbook_build_info", ["version": "0.1.0", "command": "daemon"]) == 1)

        // The run of `tidy` waits for an approval: the gauge reads the state at the scrape.
        #expect(scrape.types["skillbook_approvals_waiting"] == "gauge")
        #expect(try #require(scrape.value("skillbook_approvals_waiting")) >= 1, "\(scrape.samples.filter { $0.name.hasPrefix("skillbook_approvals") })")
        // Every journal write of those runs was timed, by the kind of write.
        #expect(scrape.types["skillbook_journal_write_seconds"] == "histogram")
        for write in ["run_started", "call_started", "call_finished", "step_finished", "run_finished", "approval_requested", "compensation_finished"] {
            let writes = try #require(scrape.value("skillbook_journal_write_seconds_count", ["write": write]), "\(write)")
            #expect(writes >= 1, "\(write)")
            #expect(scrape.value("skillbook_journal_write_seconds_bucket", ["write": write, "le": "+Inf"]) == writes, "\(write)")
            #expect(try #require(scrape.value("skillbook_journal_write_seconds_sum", ["write": write])) > 0, "\(write)")
        }
        // Three runs ended, or more (pulse fires every second): each has one run_finished.
        #expect(
            try #require(scrape.value("skillbook_journal_write_seconds_count", ["write": "run_finished"]))
                >= (scrape.samples.filter { $0.name == "skillbook_runs_finished_total" }.map(\.value).reduce(0, +)))

        // Counters only grow: a later scrape has at least as many runs.
        let runs = try #require(scrape.value("skillbook_runs_finished_total", ["playbook": "pulse", "status": "succeeded"]))
        try await Task.sleep(for: .seconds(1.5))
        let later = try await MetricsScrape.scrape(url)
        #expect(try #require(later.value("skillbook_runs_finished_total", ["playbook": "pulse", "status": "succeeded"])) >= runs)
    }

    @Test func serveCountsTheConsolesRequestsByMethodAndCode() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/pulse.yaml", Self.pulse)
        let serve = try SkillbookChild(
            ["serve", "--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--state", directory.state.path], in: directory.url)
        defer { kill(serve.pid, SIGTERM) }
        try #require(await eventually(within: 60) { metricsURL(in: serve.stderr.text) != nil && serve.stdout.text.contains("/login?token=") })
        let url = try #require(metricsURL(in: serve.stderr.text))
        let login = serve.stdout.text.split(separator: "\n").first { $0.contains("/login?token=") }!
        let console = String(login[..<login.range(of: "/login")!.lowerBound])
        let client = CurlHTTPClient()
        for _ in 0..<3 { _ = try await client.send(HTTPRequest(url: URL(string: console + "/api/v1/runs")!, timeout: 10)) }
        let scrape = try await MetricsScrape.scrape(url)
        #expect(scrape.value("skillbook_http_requests_total", ["method": "GET", "code": "401"]) == 3, "\(scrape.samples.filter { $0.name.hasPrefix("skillbook_http") })")
        #expect(scrape.value("skillbook_build_info", ["command": "serve"]) == 1)
        // Only /metrics, and only GET.
        let missing = try await client.send(HTTPRequest(url: URL(string: url.replacingOccurrences(of: "/metrics", with: "/other"))!, timeout: 10))
        #expect(missing.status == 404)
        let post = try await client.send(HTTPRequest(url: URL(string: url)!, method: "POST", body: Data(), timeout: 10))
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
    }

    @Test func theWorkerCountsClaimsAndTheQueueDepth() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/note.yaml", "name: note\nsteps:\n  - { id: save, skill: notes.create, with: { title: queued } }\n")
        let database = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: database))
        for _ in 0..<2 { _ = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli")) }
        let worker = try SkillbookChild(
            ["worker", "--state", database, "--metrics", "127.0.0.1:0", "--poll", "0.2s", "--log-format", "json"], in: directory.url)
        defer { kill(worker.pid, SIGTERM) }
        try #require(
            await eventually(within: 60) { worker.stderr.text.components(separatedBy: "\"event\":\"run finished\"").count == 3 }, "\(worker.transcript)")
        let url = try #require(metricsURL(in: worker.stderr.text), "\(worker.transcript)")
        let scrape = try await MetricsScrape.scrape(url)
        #expect(scrape.value("skillbook_worker_claims_total", ["kind": "queued"]) == 2)
        #expect(scrape.value("skillbook_queue_depth") == 0)
        #expect(scrape.value("skillbook_worker_running_runs") == 0)
        #expect(scrape.value("skillbook_runs_finished_total", ["playbook": "note", "trigger": "cli", "status": "succeeded"]) == 2)
        #expect(scrape.types["skillbook_queue_depth"] == "gauge")
        // Each claim is timed: the two that found a run, and the empty looks at the queue since.
        #expect(scrape.types["skillbook_worker_claim_duration_seconds"] == "histogram")
        let claims = try #require(scrape.value("skillbook_worker_claim_duration_seconds_count"))
        #expect(claims >= 2)
        #expect(scrape.value("skillbook_worker_claim_duration_seconds_bucket", ["le": "+Inf"]) == claims)
        #expect(scrape.value("skillbook_approvals_waiting") == 0)
    }

    @Test func aBadMetricsAddressIsAUsageError() async throws {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/pulse.yaml", Self.pulse)
        let run = await skillbook(["daemon", "--metrics", "9464"], in: directory)
        #expect(run.code == 2)
        #expect(run.err.contains("--metrics expects ADDRESS:PORT such as 127.0.0.1:9464 or [::1]:9464, got '9464'"), "\(run.err)")
    }
}
