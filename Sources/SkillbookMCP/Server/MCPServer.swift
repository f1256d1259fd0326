import SkillbookCore
import Synchronization

/// What a server says about itself and how it treats confirmation.
public struct MCPServerConfiguration: Sendable {
    public var name: String
    public var version: String
    /// Guidance for the model, sent in `initialize` and `server/discover`.
    public var instructions: String?
    /// `--yes`: calls that need confirmation run without asking.
    public var allowsUnconfirmedCalls: Bool

    public init(name: String = "skillbook", version: String, instructions: String? = nil, allowsUnconfirmedCalls: Bool = false) {
        self.name = name
        self.version = version
        self.instructions = instructions
        self.allowsUnconfirmedCalls = allowsUnconfirmedCalls
    }
}

/// An MCP server over stdio lines: the `initialize` handshake (2025-11-25, negotiating down to
/// 2025-06-18 and 2025-03-26) and the stateless 2026-07-28 revision, on one connection.
///
/// Semantics: a request whose `_meta` names a protocol version is served statelessly under it;
/// any other request is served under the revision `initialize` had agreed when the request was
/// read (a request read before `initialize` is refused, whatever the timing). Each request runs in a
/// task of its own, so a long `tools/call` does not hold up others and `notifications/cancelled`
/// can cancel it (the runner rolls back; no response is sent for a cancelled request). `serve`
/// returns when the input ends, after cancelling the calls still running and waiting for every
/// request read before the end to be answered; then it closes its output.
public final class MCPServer: Sendable {
    struct Session: Sendable {
        var version: MCPProtocolVersion
        var capabilities: ValueObject
    }

    private struct State {
        var session: Session?
        var nextTask = 0
        var tasks: [Int: Task<Void, Never>] = [:]
        var calls: [JSONRPCID: Task<Void, Never>] = [:]
        var cancelled: Set<JSONRPCID> = []
    }

    let catalog: any MCPToolCatalog
    let runner: any MCPToolRunner
    let configuration: MCPServerConfiguration
    let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    public init(
        catalog: any MCPToolCatalog, runner: any MCPToolRunner, configuration: MCPServerConfiguration,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.catalog = catalog
        self.runner = runner
        self.configuration = configuration
        self.log = log
    }

    /// Serves one client until its input ends.
    public func serve(_ channel: any LineTransport) async {
        let connection = JSONRPCConnection(channel: channel, answersMalformedLines: true, log: log)
        await connection.serve { incoming in self.receive(incoming, on: connection) }
        let running = state.withLock { $0.calls.count }
        if running > 0 { log("input closed: cancelling \(running) running call(s)") }
        await stop()
        channel.closeOutput()
    }

    /// Cancels every running call (each rolls back and answers with its rolled-back result) and
    /// waits for every request in progress to be answered. For SIGTERM: call it, then exit.
    public func stop() async {
        let (calls, tasks) = state.withLock { state in (Array(state.calls.values), Array(state.tasks.values)) }
        for call in calls { call.cancel() }
        for task in tasks { await task.value }
    }

    private func receive(_ incoming: JSONRPCIncoming, on connection: JSONRPCConnection) {
        switch incoming {
        case .notification(let method, let params):
            if method == "notifications/cancelled", let id = params["requestId"].flatMap(JSONRPCID.init) {
                let task = state.withLock { state -> Task<Void, Never>? in
                    guard let task = state.calls[id] else { return nil }
                    state.cancelled.insert(id)
                    return task
                }
                if let task {
                    log("request \(id) cancelled by the client")
                    task.cancel()
                }
            }
        case .request(let id, "initialize", let params) where !MCPRequestMeta.isStateless(params):
            // Answered in order, so that requests after it see the session.
            respond(id, initialize(params), on: connection)
        case .request(let id, let method, let params):
            // The revision is decided here, at receipt, in arrival order: a request read before
            // `initialize` is refused even when its task would start after `initialize` is answered.
            let meta: MCPRequestMeta
            do {
                meta = try requestMeta(method: method, params: params)
            } catch {
                return respond(id, .failure(error), on: connection)
            }
            // The task is registered before it can finish and unregister itself.
            state.withLock { state in
                let key = state.nextTask
                state.nextTask += 1
                let task = Task {
                    let outcome = await self.handle(id: id, method: method, params: params, meta: meta, on: connection)
                    let wasCancelled = self.state.withLock { state in
                        if method == "tools/call" { state.calls[id] = nil }
                        return state.cancelled.remove(id) != nil
                    }
                    if !wasCancelled { self.respond(id, outcome, on: connection) }
                    // Unregistered only once answered: `stop` waits for the tasks it finds, and one
                    // that left before its answer was sent lost it when the output closed.
                    self.state.withLock { $0.tasks[key] = nil }
                }
                state.tasks[key] = task
                if method == "tools/call" { state.calls[id] = task }
            }
        }
    }

    private func respond(_ id: JSONRPCID, _ outcome: Result<Value, JSONRPCError>, on connection: JSONRPCConnection) {
        switch outcome {
        case .success(let result): connection.respond(id, result: result)
        case .failure(let error): connection.respond(id, error: error)
        }
    }

    private func handle(id: JSONRPCID, method: String, params: ValueObject, meta: MCPRequestMeta, on connection: JSONRPCConnection) async
        -> Result<Value, JSONRPCError>
    {
        do {
            let result: ValueObject
            switch method {
            case "ping" where !meta.version.isStateless: result = [:]
            case "server/discover" where meta.version.isStateless: result = discover()
            case "tools/list": result = try await listTools(meta)
            case "tools/call": result = try await callTool(id: id, params: params, meta: meta, on: connection)
            default: throw JSONRPCError.methodNotFound(method)
            }
            return .success(.object(complete(result, meta)))
        } catch let error as JSONRPCError {
            return .failure(error)
        } catch {
            return .failure(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: \(error)"))
        }
    }

    /// The revision a request is served under.
    private func requestMeta(method: String, params: ValueObject) throws(JSONRPCError) -> MCPRequestMeta {
        if MCPRequestMeta.isStateless(params) || method == "server/discover" { return try MCPRequestMeta.stateless(params) }
        guard let session = state.withLock({ $0.session }) else {
            throw .invalidParams(
                "Invalid params: send 'initialize' first, or carry '_meta' with '\(MCPRequestMeta.versionKey)' "
                    + "and '\(MCPRequestMeta.capabilitiesKey)' (protocol 2026-07-28)")
        }
        return MCPRequestMeta(
            version: session.version, clientCapabilities: session.capabilities,
            progressToken: MCPRequestMeta.progressToken(params["_meta"]?.objectValue))
    }

    /// A stateless result names its type and the server.
    func complete(_ result: ValueObject, _ meta: MCPRequestMeta) -> ValueObject {
        guard meta.version.isStateless else { return result }
        var result = result
        if result["resultType"] == nil { result["resultType"] = "complete" }
        var resultMeta = result["_meta"]?.objectValue ?? [:]
        resultMeta[MCPRequestMeta.serverInfoKey] = serverInfo
        result["_meta"] = .object(resultMeta)
        return result
    }

    var serverInfo: Value { ["name": .string(configuration.name), "version": .string(configuration.version)] }

    private var capabilities: Value { ["tools": ["listChanged": false]] }

    private func initialize(_ params: ValueObject) -> Result<Value, JSONRPCError> {
        guard let requested = params["protocolVersion"]?.stringValue else {
            return .failure(.invalidParams("Invalid params: 'protocolVersion' (a string) is required"))
        }
        let version = MCPProtocolVersion.negotiate(requested)
        let clientCapabilities = params["capabilities"]?.objectValue ?? [:]
        state.withLock { $0.session = Session(version: version, capabilities: clientCapabilities) }
        let client = params["clientInfo"]?["name"]?.stringValue ?? "an unnamed client"
        log("initialize: \(client) asked for \(requested), speaking \(version)")
        var result: ValueObject = [
            "protocolVersion": .string(version.name), "capabilities": capabilities, "serverInfo": serverInfo,
        ]
        if let instructions = configuration.instructions { result["instructions"] = .string(instructions) }
        return .success(.object(result))
    }

    private func discover() -> ValueObject {
        var result: ValueObject = [
            "supportedVersions": .array(MCPProtocolVersion.all.map { .string($0.name) }),
            "capabilities": capabilities,
        ]
        if let instructions = configuration.instructions { result["instructions"] = .string(instructions) }
        result["ttlMs"] = 0
        result["cacheScope"] = "private"
        return result
    }

    private func listTools(_ meta: MCPRequestMeta) async throws -> ValueObject {
        let tools: [MCPTool]
        do {
            tools = try await catalog.tools()
        } catch {
            throw JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: cannot list the tools: \(error)")
        }
        var result: ValueObject = ["tools": .array(tools.map { $0.value(for: meta.version) })]
        if meta.version.isStateless {
            result["ttlMs"] = 0
            result["cacheScope"] = "private"
        }
        return result
    }
}
