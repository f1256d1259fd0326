import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookHost
import SkillbookSkills
import Synchronization
import Testing
import SkillbookSystem

/// A real console on 127.0.0.1 (a free port) over a fresh workspace: `hello` (echoes a greeting),
/// `many` (a foreach echoing its `items`), `secretive` (a secret input, echoed), `slow` (sleeps), `shouty` (echoes its text, for markup
/// checks), `failing` (a note, then a failure: rolled back), `note` (a note, undoable), `stuck` (a note, then
/// `sleep 30` through shell.run: killed there, a call with no result) and `broken` (an unknown skill). Requests go through libcurl, as any client's would.
final class ConsoleFixture: Sendable {
    static let playbooks: [String: String] = [
        "hello": """
            name: hello
            description: Says hello to someone.
            inputs:
              name: { type: string, default: world, description: Who to greet }
              times: { type: integer, minimum: 1, maximum: 5, default: 1 }
            steps:
              - id: greet
                skill: debug.echo
                with: { value: "Hello ${{ inputs.name }}" }
            outputs:
              greeting: "${{ steps.greet.output.value }}"

            """,
        "many": """
            name: many
            inputs:
              items: { type: array, items: { type: integer }, default: [1, 2, 3] }
            steps:
              - id: each
                foreach: "${{ inputs.items }}"
                skill: debug.echo
                with: { value: "${{ item }}" }

            """,
        "secretive": """
            name: secretive
            description: Holds a secret input.
            triggers: ["use my token"]
            inputs:
              token: { type: string, secret: true }
            steps:
              - id: use
                skill: debug.echo
                with: { value: "${{ inputs.token }}" }

            """,
        "slow": """
            name: slow
            inputs:
              seconds: { type: number, default: 1 }
            steps:
              - id: wait
                skill: debug.sleep
                with: { seconds: "${{ inputs.seconds }}" }

            """,
        "shouty": """
            name: shouty
            description: Echoes its text.
            inputs:
              text: { type: string }
            steps:
              - id: say
                skill: debug.echo
                with: { value: "${{ inputs.text }}" }

            """,
        "failing": """
            name: failing
            description: Creates a note, then fails; the note is undone.
            steps:
              - id: note
                skill: notes.create
                with: { title: "Draft </script><b>bold</b>" }
              - id: boom
                skill: debug.fail
                with: { message: "the disk is full" }

            """,
        "note": """
            name: note
            description: Creates a note; a rollback deletes it.
            inputs:
              title: { type: string, default: Groceries }
            steps:
              - id: write
                skill: notes.create
                with: { title: "${{ inputs.title }}" }

            """,
        "stuck": """
            name: stuck
            description: Creates a note, then runs a long command (an action with no idempotence).
            steps:
              - id: note
                skill: notes.create
                with: { title: "Before the wait" }
              - id: wait
                skill: shell.run
                confirm: false
                with: { argv: ["sleep", "30"] }

            """,
        "broken": """
            name: broken
            steps:
              - id: one
                skill: nosuch.skill

            """,
    ]

    let directory: URL
    let server: ConsoleServer
    let task: Task<Void, any Error>
    let loginURL: String
    let port: Int
    let client = CurlHTTPClient()

    private init(directory: URL, server: ConsoleServer, task: Task<Void, any Error>, loginURL: String) {
        self.directory = directory
        self.server = server
        self.task = task
        self.loginURL = loginURL
        port = server.boundPort
    }

    static func start(
        limits: ServerLimits = ServerLimits(maxBodyBytes: 64 << 10, maxHeaderBytes: 16 << 10), model: ModelSettings? = nil,
        configure: (inout ConsoleSettings) -> Void = { _ in }
    ) async throws -> ConsoleFixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-console-\(UUID().uuidString)")
        let playbooks = directory.appendingPathComponent("Playbooks")
        try FileManager.default.createDirectory(at: playbooks, withIntermediateDirectories: true)
        for (name, text) in Self.playbooks {
            try text.write(to: playbooks.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        let configuration = HostConfiguration(
            playbooksDirectory: playbooks, stateDirectory: directory.appendingPathComponent("state"), timeZone: TimeZone(identifier: "UTC"),
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], currentDirectory: directory, model: model)
        let ready = Ready()
        var settings = ConsoleSettings(port: 0, limits: limits, pollInterval: 0.2)
        configure(&settings)
        let server = ConsoleServer(host: PlaybookHost(configuration), settings: settings) { url in
            ready.url.withLock { $0 = url }
        }
        let task = Task { try await server.run() }
        // A bound for a server that never starts, not a speed check: the parallel pass shares two
        // cores' cooperative threads with every other suite, and a start can wait for one.
        let deadline = Date().addingTimeInterval(60)
        while ready.url.withLock({ $0 }) == nil {
            guard Date() < deadline else { throw FixtureError("the console did not start in 60 s") }
            if task.isCancelled { throw FixtureError("the console stopped") }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        return ConsoleFixture(directory: directory, server: server, task: task, loginURL: ready.url.withLock { $0 }!)
    }

    /// Stops the server gracefully and removes the workspace.
    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: directory)
    }

    var base: String { "http://127.0.0.1:\(port)" }
    var cookieName: String { "skillbook_session_\(port)" }
    var token: String { String(loginURL.split(separator: "=").last ?? "") }

    func send(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, session: Session? = nil, timeout: Double = 10
    ) async throws -> HTTPResponse {
        var all = headers
        if let session {
            all["Cookie"] = all["Cookie"] ?? "\(cookieName)=\(session.cookie)"
            if method == "POST" && all["X-CSRF-Token"] == nil { all["X-CSRF-Token"] = session.csrf }
        }
        if body != nil && all["Content-Type"] == nil { all["Content-Type"] = "application/json" }
        let request = HTTPRequest(
            url: URL(string: base + path)!, method: method, headers: all.map { HTTPHeader($0.key, $0.value) }, body: body, timeout: timeout,
            maxRedirects: 0)
        return try await client.send(request)
    }

    struct Session: Sendable {
        var cookie: String
        var csrf: String
    }

    /// Logs in with the token of the printed URL, as a browser would; fetches the CSRF token.
    func logIn(headers: [String: String] = [:]) async throws -> Session {
        let response = try await send("GET", "/login?token=\(token)", headers: headers)
        guard response.status == 303, let setCookie = response.header("set-cookie"),
            let value = setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last
        else { throw FixtureError("login answered \(response.status)") }
        let session = Session(cookie: String(value), csrf: "")
        let answer = try await send("GET", "/api/v1/session", session: session)
        guard case .object(let object) = try JSONText.decode(String(decoding: answer.body, as: UTF8.self)),
            case .string(let csrf)? = object["csrf"]
        else { throw FixtureError("no CSRF token") }
        return Session(cookie: session.cookie, csrf: csrf)
    }

    func json(_ response: HTTPResponse) throws -> ValueObject {
        guard case .object(let object) = try JSONText.decode(String(decoding: response.body, as: UTF8.self)) else {
            throw FixtureError("not a JSON object: \(String(decoding: response.body, as: UTF8.self))")
        }
        return object
    }

    func post(_ path: String, _ value: Value, session: Session) async throws -> HTTPResponse {
        try await send("POST", path, body: Data(JSONText.encode(value).utf8), session: session)
    }

    /// Starts a playbook through the API; its run id.
    func startRun(_ playbook: String, inputs: ValueObject = [:], session: Session) async throws -> String {
        let response = try await post("/api/v1/playbooks/\(playbook)/run", ["inputs": .object(inputs)], session: session)
        guard response.status == 202, case .string(let id)? = try json(response)["run"] else {
            throw FixtureError("run answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return id
    }

    /// The run's record once it is no longer running (10 s at most).
    func finishedRun(_ id: String, session: Session) async throws -> ValueObject {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let run = try json(try await send("GET", "/api/v1/runs/\(id)", session: session))
            if case .string(let status)? = run["status"], status != "running" { return run }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw FixtureError("run \(id) did not finish in 10 s")
    }
}

/// The login URL, once the server reports it.
private final class Ready: Sendable {
    let url = Mutex<String?>(nil)
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
