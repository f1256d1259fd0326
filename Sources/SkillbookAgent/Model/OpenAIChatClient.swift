public import Foundation
public import SkillbookCore

/// An OpenAI-compatible chat-completions client (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio)
/// on the program's HTTP port (`HTTPClient`; the host gives it the URLSession one):
/// `POST {baseURL}/chat/completions` with `model`, `messages`, `temperature`, `max_tokens` and
/// `response_format` as given. The API key is sent only as a bearer token, never put in an error.
/// A response longer than `maxResponseBytes` is refused as `.tooLarge` (reading stops there).
public struct OpenAIChatClient: ChatCompletions {
    public var http: any HTTPClient
    /// `http://127.0.0.1:8080/v1`: the part before `/chat/completions`.
    public var baseURL: URL
    public var model: String?
    public var apiKey: String?
    public var maxResponseBytes: Int

    public init(http: any HTTPClient, baseURL: URL, model: String? = nil, apiKey: String? = nil, maxResponseBytes: Int = 1 << 20) {
        self.http = http
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.maxResponseBytes = maxResponseBytes
    }

    /// From `SKILLBOOK_MODEL_URL`, `SKILLBOOK_MODEL` and `SKILLBOOK_API_KEY`; `nil` without a URL.
    public static func fromEnvironment(_ environment: [String: String], http: any HTTPClient) -> OpenAIChatClient? {
        guard let text = environment["SKILLBOOK_MODEL_URL"], !text.isEmpty, let url = URL(string: text) else { return nil }
        return OpenAIChatClient(http: http, baseURL: url, model: environment["SKILLBOOK_MODEL"], apiKey: environment["SKILLBOOK_API_KEY"])
    }

    var endpoint: URL {
        let text = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return URL(string: text + "/chat/completions") ?? baseURL
    }

    /// The request body.
    public func body(_ request: ChatRequest) -> Value {
        var object: ValueObject = [:]
        if let model { object["model"] = .string(model) }
        object["messages"] = .array(request.messages.map { ["role": .string($0.role.rawValue), "content": .string($0.content)] })
        object["temperature"] = .double(request.temperature)
        if let maxTokens = request.maxTokens { object["max_tokens"] = .int(maxTokens) }
        if let format = request.responseFormat { object["response_format"] = format }
        object["stream"] = false
        return .object(object)
    }

    public func complete(_ request: ChatRequest) async throws -> ChatResponse {
        var headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")]
        if let apiKey, !apiKey.isEmpty { headers.append(HTTPHeader("Authorization", "Bearer \(apiKey)")) }
        let exchange = HTTPRequest(
            url: endpoint, method: "POST", headers: headers, body: Data(JSONText.encode(body(request)).utf8),
            timeout: request.timeout, maxBodyBytes: maxResponseBytes, maxRedirects: 0)
        let response: HTTPResponse
        do {
            response = try await http.send(exchange)
        } catch let error as HTTPClientError {
            switch error.kind {
            case .timedOut: throw ChatError(.timedOut, "the model did not answer within \(Planner.seconds(request.timeout))")
            default: throw ChatError(.transport, "cannot reach the model server: \(error.message)")
            }
        }
        guard !response.truncated else {
            throw ChatError(.tooLarge, "the model's answer is larger than \(maxResponseBytes) bytes; it was not read")
        }
        guard (200..<300).contains(response.status) else {
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            throw ChatError(
                .http(response.status), "\(endpoint.absoluteString) answered HTTP \(response.status)\(text.isEmpty ? "" : ": \(text)")")
        }
        return try Self.parseResponse(String(decoding: response.body, as: UTF8.self))
    }

    /// A chat-completions response body: the first choice's content (text, text parts, or a
    /// structured value given as JSON), tool calls, finish reason and token usage.
    public static func parseResponse(_ text: String) throws(ChatError) -> ChatResponse {
        guard let value = try? JSONText.decode(text) else {
            throw ChatError(.malformed, "the model server's answer is not JSON: \(PlanParser.snippet(text))")
        }
        if let error = value["error"], value["choices"] == nil {
            let message = error["message"]?.stringValue ?? JSONText.encode(error)
            throw ChatError(.malformed, "the model server reported an error: \(message)")
        }
        guard let choice = value["choices"]?.arrayValue?.first, let message = choice["message"] else {
            throw ChatError(.malformed, "the model server's answer has no choices[0].message")
        }
        let content: String?
        switch message["content"] {
        case .string(let s)?: content = s
        case .array(let parts)?: content = parts.compactMap { $0["text"]?.stringValue ?? $0.stringValue }.joined()
        case .object?: content = JSONText.encode(message["content"]!)
        default: content = message["parsed"].map { JSONText.encode($0) }
        }
        let calls = (message["tool_calls"]?.arrayValue ?? []).compactMap { call -> ChatResponse.ToolCall? in
            guard let function = call["function"], let name = function["name"]?.stringValue else { return nil }
            let arguments: String
            switch function["arguments"] {
            case .string(let s)?: arguments = s
            case let other?: arguments = JSONText.encode(other)
            case nil: arguments = ""
            }
            return ChatResponse.ToolCall(name: name, arguments: arguments)
        }
        let usage = value["usage"]
        var total: Int? = usage?["total_tokens"]?.intValue
        if total == nil, let prompt = usage?["prompt_tokens"]?.intValue, let completion = usage?["completion_tokens"]?.intValue {
            total = prompt + completion
        }
        return ChatResponse(content: content, toolCalls: calls, finishReason: choice["finish_reason"]?.stringValue, totalTokens: total)
    }
}
