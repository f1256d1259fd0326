import Foundation
import SkillbookCore
import Synchronization

extension MCPServer {
    /// `tools/call`: an unknown tool is -32602; invalid arguments are a result with `isError`
    /// and nothing runs; a call that needs confirmation runs only once the person approved it.
    func callTool(id: JSONRPCID, params: ValueObject, meta: MCPRequestMeta, on connection: JSONRPCConnection) async throws
        -> ValueObject
    {
        guard let name = params["name"]?.stringValue else {
            throw JSONRPCError.invalidParams("Invalid params: 'name' (a string) is required")
        }
        var arguments = ValueObject()
        if let raw = params["arguments"], raw != .null {
            guard let object = raw.objectValue else {
                throw JSONRPCError.invalidParams("Invalid params: 'arguments' must be an object")
            }
            arguments = object
        }
        let call: MCPPreparedCall
        switch await runner.prepare(tool: name, arguments: arguments) {
        case .unknownTool:
            let names = (try? await catalog.tools().map(\.name)) ?? []
            let hint = Suggestion.hint(for: name, in: names).map { "; \($0)" } ?? ""
            throw JSONRPCError.invalidParams("Unknown tool: \(name)\(hint)", data: ["name": .string(name)])
        case .invalidArguments(let problems):
            let text = "invalid arguments for '\(name)'; nothing ran:\n" + problems.map { "- \($0)" }.joined(separator: "\n")
            return MCPToolResult.failure(text).value(for: meta.version)
        case .ready(let prepared):
            call = prepared
        }

        var approved = configuration.allowsUnconfirmedCalls
        var waits = false
        if let summary = call.confirmation, !approved {
            switch try await approval(of: call, summary: summary, params: params, meta: meta, on: connection) {
            case .approved: approved = true
            case .refused(let text): return MCPToolResult.failure(text).value(for: meta.version)
            case .inputRequired(let result): return result
            case .nobodyToAsk: waits = true
            }
        }

        let progress = progressReporter(meta.progressToken, id: id, on: connection)
        let context = MCPCallContext(
            approved: approved, progress: progress,
            confirm: { [self] summary in
                if configuration.allowsUnconfirmedCalls { return true }
                guard !meta.version.isStateless, meta.supportsFormElicitation else { return false }
                return (try? await elicit(summary, tool: name, meta: meta, on: connection)) == true
            })
        var waiting = context
        waiting.waitsForApproval = waits
        let result = await runner.run(call, context: waiting)
        return result.value(for: meta.version)
    }

    enum Approval {
        case approved
        /// Nothing runs; the text says why.
        case refused(String)
        /// 2026-07-28: ask the client to elicit and retry.
        case inputRequired(ValueObject)
        /// The client cannot elicit: the runner lets the call wait for an approval, or refuses it.
        case nobodyToAsk
    }

    public static let needsYes = "needs confirmation; start the server with --yes to allow it"

    private func approval(
        of call: MCPPreparedCall, summary: String, params: ValueObject, meta: MCPRequestMeta, on connection: JSONRPCConnection
    ) async throws -> Approval {
        let declined = "'\(call.tool)' was not approved; nothing ran"
        if meta.version.isStateless {
            let state = MCPConfirmationState(call)
            if let response = params["inputResponses"]?[MCPConfirmationState.inputKey],
                params["requestState"]?.stringValue == state.encoded
            {
                return MCPConfirmationState.isApproval(response) ? .approved : .refused(declined)
            }
            guard meta.supportsFormElicitation else {
                throw JSONRPCError(
                    code: JSONRPCError.missingRequiredClientCapabilityCode,
                    message: "'\(call.tool)' \(Self.needsYes), or declare the elicitation capability",
                    data: ["requiredCapabilities": ["elicitation": ["form": [:]]]])
            }
            return .inputRequired([
                "resultType": "input_required",
                "inputRequests": [
                    MCPConfirmationState.inputKey: [
                        "method": "elicitation/create",
                        "params": .object(Self.elicitationParams(summary, tool: call.tool, meta: meta)),
                    ]
                ],
                "requestState": .string(state.encoded),
            ])
        }
        guard meta.supportsFormElicitation else { return .nobodyToAsk }
        do {
            return try await elicit(summary, tool: call.tool, meta: meta, on: connection) ? .approved : .refused(declined)
        } catch let error as CancellationError {
            throw error
        } catch {
            return .refused("could not ask to confirm '\(call.tool)' (\(error)); nothing ran")
        }
    }

    /// Asks the client to show `summary` with a yes/no `confirm` field (2025-06-18 and 2025-11-25).
    func elicit(_ summary: String, tool: String, meta: MCPRequestMeta, on connection: JSONRPCConnection) async throws -> Bool {
        let result = try await connection.request(
            "elicitation/create", params: Self.elicitationParams(summary, tool: tool, meta: meta))
        return MCPConfirmationState.isApproval(result)
    }

    static func elicitationParams(_ summary: String, tool: String, meta: MCPRequestMeta) -> ValueObject {
        var params: ValueObject = [:]
        if meta.version >= .v2025_11_25 { params["mode"] = "form" }
        params["message"] = .string(summary)
        params["requestedSchema"] = [
            "type": "object",
            "properties": [
                "confirm": [
                    "type": "boolean", "title": .string("Run \(tool)"),
                    "description": .string("Approve running '\(tool)' as shown"), "default": false,
                ]
            ],
            "required": ["confirm"],
        ]
        return params
    }

    /// Sends `notifications/progress` for `token` (when the client gave one), only ever increasing,
    /// and nothing once the request is cancelled.
    private func progressReporter(_ token: Value?, id: JSONRPCID, on connection: JSONRPCConnection)
        -> @Sendable (MCPProgress) -> Void
    {
        guard let token else { return { _ in } }
        let last = Mutex<Double?>(nil)
        return { report in
            guard !Task.isCancelled else { return }
            let fresh = last.withLock { last in
                if let previous = last, report.progress <= previous { return false }
                last = report.progress
                return true
            }
            guard fresh else { return }
            var params: ValueObject = ["progressToken": token, "progress": Self.number(report.progress)]
            if let total = report.total { params["total"] = Self.number(total) }
            if let message = report.message { params["message"] = .string(message) }
            connection.notify("notifications/progress", params)
        }
    }

    static func number(_ d: Double) -> Value {
        d.rounded() == d && abs(d) < 1e15 ? .int(Int(d)) : .double(d)
    }
}

/// The `requestState` of a confirmation round trip (2026-07-28): which call was asked about, so
/// an approval is only ever taken for the same tool and arguments. It carries no secret the
/// client does not already have: the client is the one approving.
struct MCPConfirmationState {
    static let inputKey = "confirm"
    let encoded: String

    init(_ call: MCPPreparedCall) {
        let text = JSONText.encode(Self.sorted(["v": 1, "tool": .string(call.tool), "arguments": .object(call.arguments)]))
        encoded = Data(text.utf8).base64EncodedString()
    }

    /// Keys in order at every depth, so the same arguments always give the same state.
    private static func sorted(_ value: Value) -> Value {
        switch value {
        case .object(let object): .object(ValueObject(object.keys.sorted().map { ($0, sorted(object[$0]!)) }))
        case .array(let items): .array(items.map(sorted))
        default: value
        }
    }

    /// An elicitation result that approves: `accept` with `confirm: true`.
    static func isApproval(_ result: Value) -> Bool {
        result["action"] == "accept" && result["content"]?["confirm"] == .bool(true)
    }
}
