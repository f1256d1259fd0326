public import SkillbookCore

/// A JSON-RPC error object: what a peer answers instead of a result.
public struct JSONRPCError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: Value?

    public init(code: Int, message: String, data: Value? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(message) (JSON-RPC error \(code))" }

    // Codes of JSON-RPC 2.0.
    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    // Codes MCP defines (2026-07-28).
    public static let missingRequiredClientCapabilityCode = -32021
    public static let unsupportedProtocolVersionCode = -32022

    public static func parseError(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: parseErrorCode, message: "Parse error: \(detail)")
    }

    public static func invalidRequest(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: invalidRequestCode, message: "Invalid request: \(detail)")
    }

    public static func methodNotFound(_ method: String) -> JSONRPCError {
        JSONRPCError(code: methodNotFoundCode, message: "Method not found: \(method)", data: ["method": .string(method)])
    }

    public static func invalidParams(_ detail: String, data: Value? = nil) -> JSONRPCError {
        JSONRPCError(code: invalidParamsCode, message: detail, data: data)
    }

    var value: Value {
        var object: ValueObject = ["code": .int(code), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}
