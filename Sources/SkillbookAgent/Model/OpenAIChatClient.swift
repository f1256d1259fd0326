public import Foundation
public import SkillbookCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An OpenAI-compatible chat-completions client (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio)
/// over `URLSession`: `POST {baseURL}/chat/completions` with `model`, `messages`, `temperature`,
/// `max_tokens` and `response_format` as given. The API key is sent only as a bearer token, never
/// logged or put in an error. A response longer than `maxResponseBytes` is refused as `.tooLarge`.
public struct OpenAIChatClient: ChatCompletions {
    /// `http://127.0.0.1:8080/v1`: the part before `/chat/completions`.
    public var baseURL: URL
    public var model: String?
    public var apiKey: String?
    public var maxResponseBytes: Int

    public init(baseURL: URL, model: String? = nil, apiKey: String? = nil, maxResponseBytes: Int = 1 << 20) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.maxResponseBytes = maxResponseBytes
    }

    /// From `SKILLBOOK_MODEL_URL`, `SKILLBOOK_MODEL` and `SKILLBOOK_API_KEY`; `nil` without a URL.
    public static func fromEnvironment(_ environment: [String: String]) -> OpenAIChatClient? {
        guard let text = environment["SKILLBOOK_MODEL_URL"], !text.isEmpty, let url = URL(string: text) else { return nil }
        return OpenAIChatClient(baseURL: url, model: environment["SKILLBOOK_MODEL"], apiKey: environment["SKILLBOOK_API_KEY"])
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
        var urlRequest = URLRequest(url: endpoint, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout.rounded(.up) + 1)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let apiKey, !apiKey.isEmpty { urlRequest.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
        urlRequest.httpBody = Data(JSONText.encode(body(request)).utf8)
        let (data, status) = try await Exchange.run(urlRequest, timeout: request.timeout, cap: maxResponseBytes, endpoint: endpoint)
        guard (200..<300).contains(status) else {
            let text = String(decoding: data.prefix(200), as: UTF8.self)
            throw ChatError(.http(status), "\(endpoint.absoluteString) answered HTTP \(status)\(text.isEmpty ? "" : ": \(text)")")
        }
        return try Self.parseResponse(String(decoding: data, as: UTF8.self))
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

/// One HTTP exchange with a deadline (a Dispatch timer, so it fires even when the task pool is
/// busy) and a cap on the body (the transfer is cancelled once the cap is passed).
private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let cap: Int
    private var continuation: CheckedContinuation<(Data, Int), any Error>?
    private var early: Result<(Data, Int), any Error>?
    private var finished = false
    private var status = 0
    private var body = Data()

    init(cap: Int) {
        self.cap = cap
    }

    static func run(_ request: URLRequest, timeout: Double, cap: Int, endpoint: URL) async throws -> (Data, Int) {
        let exchange = Exchange(cap: cap)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.rounded(.up) + 1
        configuration.timeoutIntervalForResource = timeout.rounded(.up) + 1
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        let timer = DispatchWorkItem {
            if exchange.finish(.failure(ChatError(.timedOut, "the model did not answer within \(Planner.seconds(timeout))"))) {
                task.cancel()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if exchange.begin(continuation) { task.resume() }
                }
            } onCancel: {
                if exchange.finish(.failure(CancellationError())) { task.cancel() }
            }
        } catch let error as ChatError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch let error as URLError where error.code == .timedOut {
            throw ChatError(.timedOut, "the model did not answer within \(Planner.seconds(timeout))")
        } catch {
            throw ChatError(.transport, "cannot reach the model server at \(endpoint.absoluteString): \(error.localizedDescription)")
        }
    }

    func begin(_ continuation: CheckedContinuation<(Data, Int), any Error>) -> Bool {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    @discardableResult
    func finish(_ result: Result<(Data, Int), any Error>) -> Bool {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return false
        }
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        if continuation == nil { early = result }
        lock.unlock()
        continuation?.resume(with: result)
        return true
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { status = (response as? HTTPURLResponse)?.statusCode ?? 0 }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock { () -> Bool in
            body.append(data)
            return body.count > cap
        }
        if over, finish(.failure(ChatError(.tooLarge, "the model's answer is larger than \(cap) bytes; it was not read"))) {
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            finish(.failure(error))
        } else {
            let outcome = lock.withLock { (body, status) }
            finish(.success(outcome))
        }
    }
}
