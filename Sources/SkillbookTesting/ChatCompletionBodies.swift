import SkillbookCore

/// Chat-completions answers for a scripted model server (a `LocalHTTPServer` route on
/// `/v1/chat/completions`), as OpenAI-compatible servers send them.
public enum ChatCompletionBodies {
    /// A response whose first choice's message content is `content`.
    public static func content(_ content: String, tokens: Int = 120) -> LocalHTTPServer.Response {
        let body = JSONText.encode([
            "id": "c1", "object": "chat.completion",
            "choices": [["index": 0, "message": ["role": "assistant", "content": .string(content)], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": .int(tokens - 20), "completion_tokens": 20, "total_tokens": .int(tokens)],
        ])
        return .text(body, contentType: "application/json")
    }
}
