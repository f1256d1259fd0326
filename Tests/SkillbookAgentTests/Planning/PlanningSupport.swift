import Foundation
import SkillbookAgent
import SkillbookCore
import Synchronization

/// The shipped skills as offers, by id.
let shippedOffers: [String: PlanOffer] = Dictionary(
    uniqueKeysWithValues: shippedRegistry.descriptors.map { ($0.id, PlanOffer(skill: $0)) })

func offers(_ ids: String...) -> [PlanOffer] { ids.compactMap { shippedOffers[$0] } }

let berlinCoercion = Coercion(dates: DateParser(now: berlinClock.now, timeZone: berlinClock.timeZone))

let shippedChecker = PlanChecker(registry: shippedRegistry, coercion: berlinCoercion)

let berlinPrompt = PromptBuilder(now: berlinClock.now, timeZone: berlinClock.timeZone)

/// A model that answers from a script, in order, and records what it was asked.
final class ScriptedModel: ChatCompletions {
    private let state: Mutex<(answers: [Result<ChatResponse, ChatError>], requests: [ChatRequest])>

    init(_ answers: [Result<ChatResponse, ChatError>]) {
        state = Mutex((answers, []))
    }

    convenience init(contents: [String]) {
        self.init(contents.map { .success(ChatResponse(content: $0, totalTokens: 100)) })
    }

    var requests: [ChatRequest] { state.withLock { $0.requests } }

    func complete(_ request: ChatRequest) async throws -> ChatResponse {
        let next = state.withLock { state -> Result<ChatResponse, ChatError> in
            state.requests.append(request)
            guard !state.answers.isEmpty else { return .failure(ChatError(.malformed, "the script has no more answers")) }
            return state.answers.removeFirst()
        }
        return try next.get()
    }
}

/// A chat-completions body whose message content is `content`.
func completionBody(content: String, tokens: Int = 120) -> String {
    JSONText.encode([
        "id": "c1", "object": "chat.completion",
        "choices": [["index": 0, "message": ["role": "assistant", "content": .string(content)], "finish_reason": "stop"]],
        "usage": ["prompt_tokens": .int(tokens - 20), "completion_tokens": 20, "total_tokens": .int(tokens)],
    ])
}

/// A chat-completions body with tool calls.
func toolCallBody(_ calls: [(String, String)]) -> String {
    let list: [Value] = calls.enumerated().map { i, call in
        ["id": .string("call\(i)"), "type": "function", "function": ["name": .string(call.0), "arguments": .string(call.1)]]
    }
    return JSONText.encode([
        "choices": [["index": 0, "message": ["role": "assistant", "content": .null, "tool_calls": .array(list)], "finish_reason": "tool_calls"]]
    ])
}
