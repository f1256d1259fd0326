public import SkillbookCore

/// A JSON-RPC request id: a number or a string (MCP forbids `null` ids on requests).
public enum JSONRPCID: Sendable, Hashable, CustomStringConvertible {
    case int(Int)
    case string(String)

    /// The id read from a message's `id` member; `nil` for anything but an integer or a string.
    public init?(_ value: Value) {
        switch value {
        case .int(let i): self = .int(i)
        case .string(let s): self = .string(s)
        default: return nil
        }
    }

    public var value: Value {
        switch self {
        case .int(let i): .int(i)
        case .string(let s): .string(s)
        }
    }

    public var description: String {
        switch self {
        case .int(let i): String(i)
        case .string(let s): JSONText.quoted(s)
        }
    }
}
