public import SkillbookCore

/// One JSON-RPC 2.0 message as it travels on a line.
public enum JSONRPCMessage: Sendable, Hashable {
    case request(id: JSONRPCID, method: String, params: ValueObject?)
    case notification(method: String, params: ValueObject?)
    case result(id: JSONRPCID, result: Value)
    /// An error response; `id` is `nil` when the request it answers could not be read.
    case error(id: JSONRPCID?, error: JSONRPCError)

    /// Reads one line. A line that is not JSON throws a parse error (-32700); JSON that is not a
    /// JSON-RPC 2.0 message throws an invalid-request error (-32600) carrying the id when one
    /// could be read (`DecodingFailure.id`).
    public static func decode(_ line: String) throws(DecodingFailure) -> JSONRPCMessage {
        let value: Value
        do {
            value = try JSONText.decode(line)
        } catch {
            throw DecodingFailure(id: nil, error: .parseError(error.description))
        }
        return try decode(value)
    }

    public static func decode(_ value: Value) throws(DecodingFailure) -> JSONRPCMessage {
        guard let object = value.objectValue else {
            let what = value.arrayValue != nil ? "batches are not supported" : "a message must be a JSON object"
            throw DecodingFailure(id: nil, error: .invalidRequest(what))
        }
        let rawID = object["id"]
        let id = rawID.flatMap(JSONRPCID.init)
        func invalid(_ text: String) -> DecodingFailure { DecodingFailure(id: id, error: .invalidRequest(text)) }
        guard object["jsonrpc"] == "2.0" else { throw invalid("'jsonrpc' must be \"2.0\"") }
        if let rawID, rawID != .null, id == nil { throw invalid("'id' must be a string or an integer") }

        if let method = object["method"] {
            guard let name = method.stringValue else { throw invalid("'method' must be a string") }
            var params: ValueObject?
            if let raw = object["params"] {
                guard let members = raw.objectValue else { throw invalid("'params' must be an object") }
                params = members
            }
            if let id { return .request(id: id, method: name, params: params) }
            guard rawID == nil else { throw invalid("'id' must be a string or an integer") }
            return .notification(method: name, params: params)
        }
        if let result = object["result"] {
            guard let id else { throw invalid("a result must carry the id of its request") }
            return .result(id: id, result: result)
        }
        if let error = object["error"] {
            guard let members = error.objectValue, let code = members["code"]?.intValue,
                let message = members["message"]?.stringValue
            else { throw invalid("'error' must have an integer 'code' and a string 'message'") }
            return .error(id: id, error: JSONRPCError(code: code, message: message, data: members["data"]))
        }
        throw invalid("a message needs 'method', 'result' or 'error'")
    }

    /// The message as one line of JSON (no newline inside: JSON escapes every control character).
    public var line: String { JSONText.encode(value) }

    public var value: Value {
        var object: ValueObject = ["jsonrpc": "2.0"]
        switch self {
        case .request(let id, let method, let params):
            object["id"] = id.value
            object["method"] = .string(method)
            if let params { object["params"] = .object(params) }
        case .notification(let method, let params):
            object["method"] = .string(method)
            if let params { object["params"] = .object(params) }
        case .result(let id, let result):
            object["id"] = id.value
            object["result"] = result
        case .error(let id, let error):
            object["id"] = id?.value ?? .null
            object["error"] = error.value
        }
        return .object(object)
    }

    /// Why a line is not a message, and the error response it gets.
    public struct DecodingFailure: Error, Sendable, Hashable {
        public var id: JSONRPCID?
        public var error: JSONRPCError
    }
}
