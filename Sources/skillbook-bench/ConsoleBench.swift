import Foundation
import SkillbookCore
import SkillbookSQL
import SkillbookSQLite
import SkillbookSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `console`: the real `skillbook serve` (the release binary next to the bench, or `SKILLBOOK_BIN`)
/// over a journal of 100,000 runs, through its HTTP API as the pages use it.
///
/// - `console_runs_page_p50`/`_p95`: `GET /api/v1/runs` (the Runs page's first read: the newest 50)
///   with 100,000 runs in the journal, 200 times (targets p50 ≤ 20 ms, p95 ≤ 100 ms).
/// - `console_run_10000_steps`: `GET /api/v1/runs/ID` of a run of 10,000 steps (its record and
///   timeline, what the Run page reads), best of 5 (target ≤ 150 ms).
/// - `console_sse_latency_p50`: for each step end of runs started through the API, the moment an
///   event-stream client reads it minus the step's `finished` time in the journal (target ≤ 50 ms).
/// - `console_sse_events_lost`: 50 event-stream clients following every run while 10 runs of 20
///   steps execute: events each run published (42) × 10 × 50 minus the events the clients read
///   (target 0).
/// - `console_idle_rss` (VmHWM, MB; target ≤ 40) and `console_idle_cpu` (hundredths of a percent of
///   a core over `SKILLBOOK_BENCH_IDLE_SECONDS`, default 20; target ≤ 0.1 % = 10) of a fresh serve
///   on that journal, nobody connected.
struct ConsoleBench {
    var state: URL

    static let journalRuns = 100_000
    static let bigRunSteps = 10_000
    static let tickSteps = 20

    func run() async throws -> [Figure] {
        let skillbook = try ColdStartBench.skillbookBinary()
        let workspace = state.appendingPathComponent("console")
        let stateDirectory = workspace.appendingPathComponent("state")
        try makeWorkspace(workspace)
        try fillJournal(stateDirectory)
        // The 10,000-step run, recorded by a real `skillbook run`.
        let runner = Process()
        runner.executableURL = URL(fileURLWithPath: skillbook)
        runner.arguments = ["run", "steps", "--state", stateDirectory.path]
        runner.currentDirectoryURL = workspace
        runner.standardOutput = FileHandle.nullDevice
        runner.standardError = FileHandle.nullDevice
        try runner.run()
        runner.waitUntilExit()
        guard runner.terminationStatus == 0 else { throw BenchError("console: 'skillbook run steps' exited \(runner.terminationStatus)") }
        let database = try StateDatabase.open(stateDirectory: stateDirectory)
        guard let bigRun = try database.query("SELECT id FROM runs WHERE playbook = 'steps'").first?.string("id") else {
            throw BenchError("console: the 10,000-step run is not in the journal")
        }

        var figures: [Figure] = []
        let serve = try ServeProcess(skillbook: skillbook, workspace: workspace)
        let api = try await APISession(serve: serve)
        figures += try await runsPage(api)
        figures.append(try await bigRunPage(api, bigRun))
        figures += try await events(api, serve: serve, database: database)
        try serve.stop()

        let idleSeconds = ProcessInfo.processInfo.environment["SKILLBOOK_BENCH_IDLE_SECONDS"].flatMap(Double.init) ?? 20
        let idle = try ServeProcess(skillbook: skillbook, workspace: workspace)
        try await Task.sleep(for: .seconds(2))
        let before = try idle.cpuSeconds()
        try await Task.sleep(for: .seconds(idleSeconds))
        let used = try idle.cpuSeconds() - before
        let peak = try idle.peakMegabytes()
        try idle.stop()
        figures += [
            Figure(name: "console_idle_seconds", value: idleSeconds, unit: "s"),
            Figure(name: "console_idle_cpu", value: used / idleSeconds * 100 * 100, unit: "0.01%_core"),
            Figure(name: "console_idle_rss", value: peak, unit: "MB"),
        ]
        return figures
    }

    private func makeWorkspace(_ workspace: URL) throws {
        let playbooks = workspace.appendingPathComponent("Playbooks")
        try FileManager.default.createDirectory(at: playbooks, withIntermediateDirectories: true)
        try StepsPlaybook.text(steps: Self.bigRunSteps).replacingOccurrences(of: "name: bench-steps", with: "name: steps")
            .write(to: playbooks.appendingPathComponent("steps.yaml"), atomically: true, encoding: .utf8)
        try StepsPlaybook.text(steps: Self.tickSteps).replacingOccurrences(of: "name: bench-steps", with: "name: tick")
            .write(to: playbooks.appendingPathComponent("tick.yaml"), atomically: true, encoding: .utf8)
    }

    /// 100,000 finished runs of 20 playbooks, one a minute back from now, written in one transaction.
    private func fillJournal(_ stateDirectory: URL) throws {
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        let database = try StateDatabase.open(stateDirectory: stateDirectory)
        let now = Date().timeIntervalSince1970 - 3600
        let statuses = ["succeeded", "succeeded", "succeeded", "failed", "rolled_back"]
        try database.transaction {
            let insert = try database.prepare(
                """
                INSERT INTO runs (id, playbook, inputs, trigger, status, started, finished, pid, host, outputs)
                VALUES (?1, ?2, '{"name":"world"}', ?3, ?4, ?5, ?6, 1, 'bench', '{}')
                """)
            for index in 0..<Self.journalRuns {
                let started = now - Double(Self.journalRuns - index) * 60
                _ = try insert.run([
                    .text(UUID().uuidString.lowercased()), .text("playbook-\(index % 20)"), .text(index % 3 == 0 ? "schedule" : "cli"),
                    .text(statuses[index % statuses.count]), .real(started), .real(started + 1.5),
                ])
            }
        }
    }

    private func runsPage(_ api: APISession) async throws -> [Figure] {
        var times: [Double] = []
        for _ in 0..<10 { _ = try await api.get("/api/v1/runs") }
        for _ in 0..<200 {
            let start = ContinuousClock.now
            let response = try await api.get("/api/v1/runs")
            times.append((ContinuousClock.now - start).seconds)
            guard response.status == 200, response.body.count > 1000 else { throw BenchError("console: GET /api/v1/runs answered \(response.status)") }
        }
        times.sort()
        return [
            Figure(name: "console_runs_page_p50", value: times[times.count / 2] * 1000, unit: "ms"),
            Figure(name: "console_runs_page_p95", value: times[times.count * 95 / 100] * 1000, unit: "ms"),
        ]
    }

    private func bigRunPage(_ api: APISession, _ id: String) async throws -> Figure {
        var body = Data()
        let seconds = try await Measure.best(runs: 5) {
            let response = try await api.get("/api/v1/runs/\(id)")
            guard response.status == 200 else { throw BenchError("console: GET /api/v1/runs/ID answered \(response.status)") }
            body = response.body
        }
        let decoded = try? JSONText.decode(String(decoding: body, as: UTF8.self))
        let steps = decoded?.objectValue?["steps"]?.arrayValue?.count ?? 0
        guard steps == Self.bigRunSteps else {
            throw BenchError("console: the run page held \(steps) steps of \(Self.bigRunSteps) (\(body.count) bytes)")
        }
        return Figure(name: "console_run_10000_steps", value: seconds * 1000, unit: "ms")
    }

    /// The SSE latency (one client, one run at a time), then 50 clients while 10 runs execute.
    private func events(_ api: APISession, serve: ServeProcess, database: Database) async throws -> [Figure] {
        let one = try SSEClient(port: serve.port, cookie: api.cookie)
        defer { one.close() }
        var latencies: [Double] = []
        for _ in 0..<5 {
            let id = try await api.start("tick")
            try await api.waitFinished(id)
            try await Task.sleep(for: .milliseconds(200))
            let seen = one.events(of: id)
            let rows = try database.query("SELECT step, finished FROM steps WHERE run = ?1", [.text(id)])
            for row in rows {
                guard let step = row.string("step"), let finished = row.double("finished"),
                    let read = seen.first(where: { $0.type == "step.succeeded" && $0.step == step })?.at
                else { continue }
                latencies.append(read - finished)
            }
        }
        guard !latencies.isEmpty else { throw BenchError("console: no step end reached the event stream") }
        latencies.sort()

        let clients = try (0..<50).map { _ in try SSEClient(port: serve.port, cookie: api.cookie) }
        defer { for client in clients { client.close() } }
        try await Task.sleep(for: .milliseconds(500))
        var ids: [String] = []
        for _ in 0..<10 { ids.append(try await api.start("tick")) }
        for id in ids { try await api.waitFinished(id) }
        try await Task.sleep(for: .seconds(1))
        let perRun = 2 * Self.tickSteps + 2
        let expected = perRun * ids.count * clients.count
        let received = clients.reduce(0) { total, client in total + ids.reduce(0) { $0 + client.events(of: $1).count } }
        return [
            Figure(name: "console_sse_latency_p50", value: latencies[latencies.count / 2] * 1000, unit: "ms"),
            Figure(name: "console_sse_clients", value: Double(clients.count), unit: "clients"),
            Figure(name: "console_sse_events_expected", value: Double(expected), unit: "events"),
            Figure(name: "console_sse_events_lost", value: Double(expected - received), unit: "events"),
        ]
    }
}

/// A release `skillbook serve` on a free port, its login URL read from its first line.
private final class ServeProcess {
    let process = Process()
    let loginURL: String
    let port: Int

    init(skillbook: String, workspace: URL) throws {
        process.executableURL = URL(fileURLWithPath: skillbook)
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--state", workspace.appendingPathComponent("state").path]
        process.currentDirectoryURL = workspace
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var bytes: [UInt8] = []
        while true {
            let data = out.fileHandleForReading.readData(ofLength: 1)
            guard let byte = data.first else { throw BenchError("console: serve printed no URL") }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        loginURL = String(decoding: bytes, as: UTF8.self)
        guard let url = URL(string: loginURL), let port = url.port else { throw BenchError("console: serve printed '\(loginURL)'") }
        self.port = port
    }

    func stop() throws {
        process.terminate()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("console: serve exited with \(process.terminationStatus)") }
    }

    func cpuSeconds() throws -> Double {
        let text = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        guard let close = text.lastIndex(of: ")") else { throw BenchError("console: unreadable /proc stat") }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("console: unreadable /proc stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func peakMegabytes() throws -> Double {
        let text = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { throw BenchError("console: no VmHWM in /proc status") }
        return kilobytes / 1024
    }
}

/// A logged-in client of the API (libcurl, as any script's).
private struct APISession {
    let base: String
    let cookie: String
    let csrf: String
    let client = CurlHTTPClient()

    init(serve: ServeProcess) async throws {
        base = "http://127.0.0.1:\(serve.port)"
        let login = try await client.send(HTTPRequest(url: URL(string: serve.loginURL)!, maxRedirects: 0))
        guard let setCookie = login.header("set-cookie"), let pair = setCookie.split(separator: ";").first else {
            throw BenchError("console: login answered \(login.status)")
        }
        cookie = String(pair)
        let session = try await client.send(HTTPRequest(url: URL(string: base + "/api/v1/session")!, headers: [HTTPHeader("Cookie", cookie)]))
        guard case .object(let object)? = try? JSONText.decode(String(decoding: session.body, as: UTF8.self)),
            case .string(let token)? = object["csrf"]
        else { throw BenchError("console: no CSRF token") }
        csrf = token
    }

    func get(_ path: String) async throws -> HTTPResponse {
        // A 10,000-step run's page is over the client's default 5 MiB.
        try await client.send(
            HTTPRequest(url: URL(string: base + path)!, headers: [HTTPHeader("Cookie", cookie)], timeout: 30, maxBodyBytes: 256 << 20))
    }

    func start(_ playbook: String) async throws -> String {
        let response = try await client.send(
            HTTPRequest(
                url: URL(string: base + "/api/v1/playbooks/\(playbook)/run")!, method: "POST",
                headers: [HTTPHeader("Cookie", cookie), HTTPHeader("X-CSRF-Token", csrf), HTTPHeader("Content-Type", "application/json")],
                body: Data("{}".utf8), timeout: 30))
        guard response.status == 202, case .object(let object)? = try? JSONText.decode(String(decoding: response.body, as: UTF8.self)),
            case .string(let id)? = object["run"]
        else { throw BenchError("console: starting \(playbook) answered \(response.status)") }
        return id
    }

    func waitFinished(_ id: String) async throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let response = try await get("/api/v1/runs/\(id)")
            if case .object(let run)? = try? JSONText.decode(String(decoding: response.body, as: UTF8.self)),
                case .string(let status)? = run["status"], status != "running"
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError("console: run \(id) did not finish in 60 s")
    }
}

/// A raw event-stream client of `/api/v1/events` (every run) on a socket of its own, reading on a
/// thread of its own: each event with the wall-clock moment it was read.
private final class SSEClient: Sendable {
    struct Event: Sendable {
        var run: String
        var type: String
        var step: String?
        var at: Double
    }

    /// The events read, shared with the reading thread.
    private final class Log: Sendable {
        let events = Mutex<[Event]>([])
    }

    private let socket: Int32
    private let received = Log()

    init(port: Int, cookie: String) throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        socket = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchError("console: cannot connect an event stream") }
        // HTTP/1.0: the stream comes unchunked, to the end of the connection.
        let request = "GET /api/v1/events HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
        let received = received
        Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { return }
                let at = Date().timeIntervalSince1970
                pending += buffer[0..<count]
                // Events end with a blank line; the data line holds the JSON.
                while let end = Self.blankLine(in: pending) {
                    let text = String(decoding: pending[..<end], as: UTF8.self)
                    pending.removeFirst(end + 2)
                    for line in text.split(separator: "\n") where line.hasPrefix("data: ") {
                        guard case .object(let object)? = try? JSONText.decode(String(line.dropFirst(6))),
                            case .string(let run)? = object["run"], case .string(let type)? = object["type"]
                        else { continue }
                        let event = Event(run: run, type: type, step: object["step"]?.stringValue, at: at)
                        received.events.withLock { $0.append(event) }
                    }
                }
            }
        }.start()
    }

    private static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 10 && bytes[index + 1] == 10 { return index }
        return nil
    }

    func events(of run: String) -> [Event] { received.events.withLock { $0.filter { $0.run == run } } }

    func close() { shutdown(socket, Int32(SHUT_RDWR)) }
}
