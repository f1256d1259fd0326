public import SkillbookCore

/// One chat-completions exchange with a language model: a request in, a response out.
///
/// A conformer must:
/// - send `messages` in order, with `temperature`, `maxTokens` and `responseFormat` as given
///   (never drop `responseFormat`: without it a model decodes unconstrained);
/// - give up after `request.timeout` seconds with `ChatError.Kind.timedOut`;
/// - report an HTTP status outside 2xx as `.http(status)` with the body's start, an answer larger
///   than its cap as `.tooLarge`, and a body that is not a chat completion as `.malformed`;
/// - stop promptly when the calling task is cancelled, throwing `CancellationError`.
public protocol ChatCompletions: Sendable {
    func complete(_ request: ChatRequest) async throws -> ChatResponse
}

public struct ChatMessage: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable {
        case system, user, assistant
    }

    public var role: Role
    public var content: String

    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }
}

public struct ChatRequest: Sendable {
    public var messages: [ChatMessage]
    public var temperature: Double
    public var maxTokens: Int?
    /// `response_format`, sent as given.
    public var responseFormat: Value?
    /// Seconds for the whole exchange.
    public var timeout: Double

    public init(messages: [ChatMessage], temperature: Double = 0, maxTokens: Int? = nil, responseFormat: Value? = nil, timeout: Double = 60) {
        self.messages = messages
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.responseFormat = responseFormat
        self.timeout = timeout
    }
}

public struct ChatResponse: Sendable {
    public struct ToolCall: Sendable, Hashable {
        public var name: String
        /// The arguments as the model wrote them (JSON text, usually).
        public var arguments: String

        public init(name: String, arguments: String) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// The message's text; a structured (non-text) content is given here as its JSON.
    public var content: String?
    public var toolCalls: [ToolCall]
    public var finishReason: String?
    /// Tokens the exchange used (prompt + completion), when the server says.
    public var totalTokens: Int?

    public init(content: String?, toolCalls: [ToolCall] = [], finishReason: String? = nil, totalTokens: Int? = nil) {
        self.content = content
        self.toolCalls = toolCalls
        self.finishReason = finishReason
        self.totalTokens = totalTokens
    }
}

/// Why an exchange gave no usable response.
public struct ChatError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case http(Int)
        case timedOut
        case tooLarge
        case malformed
        case transport
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
