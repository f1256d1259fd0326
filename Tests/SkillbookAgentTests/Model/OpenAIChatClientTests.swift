import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookSkills
import Testing
import SkillbookSystem

@Suite struct OpenAIChatClientTests {
    @Test func readsContentPartsToolCallsAndUsage() throws {
        let body = #"{"choices":[{"message":{"content":[{"type":"text","text":"{\"question\":"},{"type":"text","text":"\"why?\"}"}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":3}}"#
        let response = try OpenAIChatClient.parseResponse(body)
        #expect(response.content == #"{"question":"why?"}"#)
        #expect(response.finishReason == "stop")
        #expect(response.totalTokens == 10)
    }

    @Test func aStructuredContentValueIsGivenAsJSON() throws {
        let response = try OpenAIChatClient.parseResponse(#"{"choices":[{"message":{"content":{"question":"which?"}}}]}"#)
        #expect(response.content == #"{"question":"which?"}"#)
    }

    @Test func aServerErrorOrNonJSONIsMalformed() {
        #expect(throws: ChatError(.malformed, "the model server reported an error: model not loaded")) {
            try OpenAIChatClient.parseResponse(#"{"error":{"message":"model not loaded"}}"#)
        }
        #expect(throws: ChatError(.malformed, "the model server's answer is not JSON: '<html>oops</html>'")) {
            try OpenAIChatClient.parseResponse("<html>oops</html>")
        }
    }

    @Test func isConfiguredFromTheEnvironment() throws {
        #expect(OpenAIChatClient.fromEnvironment([:], http: SystemHTTPClient()) == nil)
        let client = try #require(
            OpenAIChatClient.fromEnvironment([
                "SKILLBOOK_MODEL_URL": "http://127.0.0.1:8080/v1/", "SKILLBOOK_MODEL": "qwen", "SKILLBOOK_API_KEY": "k",
            ], http: SystemHTTPClient()))
        #expect(client.model == "qwen")
        #expect(client.apiKey == "k")
        let body = client.body(ChatRequest(messages: [ChatMessage(.user, "hi")], temperature: 0.5, maxTokens: 64, responseFormat: ["type": "json_object"]))
        #expect(
            JSONText.encode(body)
                == #"{"model":"qwen","messages":[{"role":"user","content":"hi"}],"temperature":0.5,"max_tokens":64,"response_format":{"type":"json_object"},"stream":false}"#)
    }
}
