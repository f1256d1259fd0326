public import SkillbookCore

/// A chat-completions client that masks every secret `secrets` knows in each message before it
/// is sent: the prompt, the clauses, a repair's diagnostics and the model's own earlier answer.
/// The book is read at each call, so a secret the conversation learns later is masked from then on.
public struct MaskedChatClient: ChatCompletions {
    public let client: any ChatCompletions
    public let secrets: SecretBook

    public init(_ client: any ChatCompletions, secrets: SecretBook) {
        self.client = client
        self.secrets = secrets
    }

    public func complete(_ request: ChatRequest) async throws -> ChatResponse {
        let redactor = secrets.redactor
        guard !redactor.isEmpty else { return try await client.complete(request) }
        var masked = request
        masked.messages = request.messages.map { ChatMessage($0.role, redactor.redact($0.content)) }
        return try await client.complete(masked)
    }
}
