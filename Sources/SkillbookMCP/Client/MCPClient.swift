public import SkillbookCore
import Foundation

/// What a `tools/call` returned.
public struct MCPCallResult: Sendable, Hashable {
    /// The `content` blocks as sent.
    public var content: [Value]
    public var structuredContent: Value?
    public var isError: Bool

    /// The text of the `text` blocks, joined by newlines.
    public var text: String {
        content.compactMap { $0["type"] == "text" ? $0["text"]?.stringValue : nil }.joined(separator: "\n")
    }
}

/// A client of one MCP server on stdio: it spawns the server, agrees on a protocol revision,
/// lists and calls tools, and shuts it down as the stdio transport says.
///
/// Revision: it asks `server/discover` first (the stateless 2026-07-28 revision); when the
/// server answers listing 2026-07-28, every request then carries its `_meta` (revision, client
/// capabilities, client info) and no handshake is made. When the server refuses the request (a
/// JSON-RPC error such as -32601, as servers of earlier revisions answer) or does not list that
/// revision, it falls back to the `initialize` handshake (2025-11-25, or what the server offers
/// of 2025-06-18 and 2025-03-26). A server that does not answer `server/discover` at all within
/// the timeout is taken as hanging, not as old.
///
/// Semantics: every request has the command's `timeout`; a server that exits, closes its
/// output, writes a line that is not JSON-RPC or does not answer in time fails the request
/// with an `MCPClientError` naming the command (and the end of its stderr) — never a hang —
/// and a server in that state is stopped, so the next `start` begins afresh. Requests the
/// server sends (elicitation, sampling, roots) are refused with -32601, `ping` is answered.
/// Cancelling a waiting call sends `notifications/cancelled`.
public actor MCPClient {
    public let command: MCPServerCommand
    private let log: @Sendable (String) -> Void
    private let processes: any ProcessRunning
    private var process: ServerProcess?
    private var connection: JSONRPCConnection?
    private var reader: Task<Void, Never>?
    private let progressHandlers = ProgressHandlers()
    /// What the server said about itself in `initialize`.
    public private(set) var serverInfo: Value?
    public private(set) var protocolVersion: String?
    /// Requests carry `_meta` (2026-07-28) instead of relying on the handshake.
    private var stateless = false
    private static let clientInfo: Value = ["name": "skillbook", "version": "1"]

    /// `processes` starts the server (the host's `ProcessRunning`: no shell, a clean environment).
    public init(command: MCPServerCommand, processes: any ProcessRunning, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.command = command
        self.processes = processes
        self.log = log
    }

    public var isRunning: Bool { process != nil && process?.exitStatus == nil && connection?.isClosed == false }

    private var starting: Task<Result<Void, MCPClientError>, Never>?

    /// Starts the server and does the handshake, unless it already runs (concurrent callers
    /// share one start).
    public func start() async throws(MCPClientError) {
        if isRunning, starting == nil { return }
        if let starting {
            try await starting.value.get()
            return
        }
        let task = Task { () -> Result<Void, MCPClientError> in
            do throws(MCPClientError) {
                try await self.launch()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        starting = task
        let outcome = await task.value
        starting = nil
        try outcome.get()
    }

    private func launch() async throws(MCPClientError) {
        await stop()
        let process = try await ServerProcess.start(command, processes: processes)
        let connection = JSONRPCConnection(channel: process.transport, answersMalformedLines: false, log: log)
        let handlers = progressHandlers
        self.process = process
        self.connection = connection
        reader = Task {
            await connection.serve { incoming in
                switch incoming {
                case .request(let id, "ping", _): connection.respond(id, result: [:])
                case .request(let id, let method, _): connection.respond(id, error: .methodNotFound(method))
                case .notification("notifications/progress", let params): handlers.deliver(params)
                case .notification: break
                }
            }
        }
        stateless = false
        if try await discover() { return }
        let result = try await send(
            "initialize",
            [
                "protocolVersion": .string(MCPProtocolVersion.v2025_11_25.name), "capabilities": [:],
                "clientInfo": Self.clientInfo,
            ])
        guard let version = result["protocolVersion"]?.stringValue else {
            await stop()
            throw .badAnswer(command: command.display, method: "initialize", detail: "no 'protocolVersion'")
        }
        guard MCPProtocolVersion.handshake.contains(where: { $0.name == version }) else {
            await stop()
            throw .badAnswer(
                command: command.display, method: "initialize", detail: "it speaks protocol \(version), which this client does not")
        }
        protocolVersion = version
        serverInfo = result["serverInfo"]
        connection.notify("notifications/initialized")
    }

    /// `server/discover`: whether the server speaks 2026-07-28 (then requests carry `_meta`).
    /// A refusal means an older server; any other failure is thrown.
    private func discover() async throws(MCPClientError) -> Bool {
        stateless = true
        let result: Value
        do {
            result = try await send("server/discover", nil)
        } catch .refused {
            stateless = false
            return false
        }
        let modern = MCPProtocolVersion.v2026_07_28.name
        guard result["supportedVersions"]?.arrayValue?.contains(.string(modern)) == true else {
            stateless = false
            return false
        }
        protocolVersion = modern
        serverInfo = result["_meta"]?[MCPRequestMeta.serverInfoKey] ?? result["serverInfo"]
        return true
    }

    /// `params` with the per-request `_meta` of 2026-07-28 when the client speaks it.
    private func enveloped(_ params: ValueObject?) -> ValueObject? {
        guard stateless else { return params }
        var params = params ?? [:]
        var meta = params["_meta"]?.objectValue ?? [:]
        meta[MCPRequestMeta.versionKey] = .string(MCPProtocolVersion.v2026_07_28.name)
        meta[MCPRequestMeta.capabilitiesKey] = [:]
        meta[MCPRequestMeta.clientInfoKey] = Self.clientInfo
        params["_meta"] = .object(meta)
        return params
    }

    /// Every tool the server offers (following `nextCursor`), starting the server if needed.
    public func listTools() async throws(MCPClientError) -> [MCPTool] {
        try await start()
        var tools: [MCPTool] = []
        var cursor: Value?
        repeat {
            let result = try await send("tools/list", cursor.map { ["cursor": $0] })
            guard let entries = result["tools"]?.arrayValue else {
                throw .badAnswer(command: command.display, method: "tools/list", detail: "no 'tools' list")
            }
            for entry in entries {
                guard let name = entry["name"]?.stringValue else {
                    throw .badAnswer(command: command.display, method: "tools/list", detail: "a tool without a 'name'")
                }
                tools.append(
                    MCPTool(
                        name: name, title: entry["title"]?.stringValue, description: entry["description"]?.stringValue ?? "",
                        inputSchema: entry["inputSchema"] ?? ["type": "object"], outputSchema: entry["outputSchema"],
                        annotations: MCPToolAnnotations(entry["annotations"])))
            }
            cursor = result["nextCursor"].flatMap { $0 == .null ? nil : $0 }
        } while cursor != nil
        return tools
    }

    /// Calls a tool. `progress` hears `notifications/progress` for this call.
    public func callTool(
        _ name: String, arguments: ValueObject, progress: (@Sendable (MCPProgress) -> Void)? = nil
    ) async throws(MCPClientError) -> MCPCallResult {
        try await start()
        var params: ValueObject = ["name": .string(name), "arguments": .object(arguments)]
        var token: String?
        if let progress {
            let key = progressHandlers.register(progress)
            token = key
            params["_meta"] = ["progressToken": .string(key)]
        }
        defer { if let token { progressHandlers.remove(token) } }
        let result = try await send("tools/call", params)
        guard let content = result["content"]?.arrayValue else {
            throw .badAnswer(command: command.display, method: "tools/call", detail: "no 'content' list")
        }
        let structured = result["structuredContent"].flatMap { $0 == .null ? nil : $0 }
        return MCPCallResult(content: content, structuredContent: structured, isError: result["isError"] == true)
    }

    /// The running process, for tests of the shutdown sequence.
    var processForTests: ServerProcess? { process }

    /// Shuts the server down: close its stdin, wait, SIGTERM, wait, SIGKILL.
    public func stop() async {
        guard let process else { return }
        let status = await process.shutdown(grace: command.shutdownGrace)
        log("MCP server '\(command.display)' \(status)")
        // Its output ends with it, unless something it started still holds the pipe: then stop
        // that too, and do not wait for it.
        if let reader, !(await Self.finishes(reader, within: 1)) {
            process.terminate()
        }
        self.process = nil
        connection = nil
        reader = nil
    }

    /// Whether `task` ends within `seconds` (it is not cancelled either way).
    private static func finishes(_ task: Task<Void, Never>, within seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            let once = OneShot(continuation)
            Task {
                await task.value
                once.resume(true)
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                once.resume(false)
            }
        }
    }

    private func send(_ method: String, _ params: ValueObject?) async throws(MCPClientError) -> Value {
        guard let connection, let process else { throw .exited(command: command.display, status: "is not running", stderr: "") }
        do {
            let result = try await connection.request(method, params: enveloped(params), timeout: command.timeout)
            if stateless, let type = result["resultType"]?.stringValue, type != "complete" {
                throw MCPClientError.badAnswer(
                    command: command.display, method: method, detail: "it asks for more input ('\(type)'), which this client cannot give")
            }
            return result
        } catch let error as MCPClientError {
            throw error
        } catch let error as JSONRPCError {
            throw .refused(command: command.display, method: method, error: error)
        } catch let error as JSONRPCConnectionError {
            let failure: MCPClientError
            switch error {
            case .closed:
                let status = await process.waitForExit(seconds: 2) ?? "closed its output"
                failure = .exited(command: command.display, status: status, stderr: process.stderr)
            case .timedOut(_, let seconds):
                failure = .timedOut(command: command.display, method: method, seconds: seconds)
            case .garbage(let line):
                failure = .garbage(command: command.display, line: line)
            }
            await stop()
            throw failure
        } catch {
            // Cancelled: the connection told the server; the server stays up.
            throw .cancelled(command: command.display)
        }
    }
}
