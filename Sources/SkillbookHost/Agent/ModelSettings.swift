public import Foundation
public import SkillbookAgent

/// The language model that plans requests nothing else covers (layer 3 of `ask`), as a plain
/// value: an OpenAI-compatible chat-completions server, the model name, the API key and what one
/// request may spend. Filled from `SKILLBOOK_MODEL_URL`, `SKILLBOOK_MODEL` and `SKILLBOOK_API_KEY`
/// by `HostConfiguration.workspace`, or by any other source of configuration (a workspace file).
public struct ModelSettings: Sendable {
    /// The part of the URL before `/chat/completions`, e.g. `http://127.0.0.1:8080/v1`.
    public var url: URL
    /// The `model` field of each request; `nil` leaves it out (llama.cpp serves one model).
    public var model: String?
    /// Sent only as a bearer token; never printed, never in a prompt.
    public var apiKey: String?
    /// Calls, tokens and seconds per request.
    public var budget: PlanningBudget

    public init(url: URL, model: String? = nil, apiKey: String? = nil, budget: PlanningBudget = PlanningBudget()) {
        self.url = url
        self.model = model
        self.apiKey = apiKey
        self.budget = budget
    }

    /// From `SKILLBOOK_MODEL_URL` (required; `nil` without it or when it is not an http(s) URL),
    /// `SKILLBOOK_MODEL` and `SKILLBOOK_API_KEY`; empty values count as unset.
    public static func fromEnvironment(_ environment: [String: String]) -> ModelSettings? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let text = value("SKILLBOOK_MODEL_URL"), let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "")
        else { return nil }
        return ModelSettings(url: url, model: value("SKILLBOOK_MODEL"), apiKey: value("SKILLBOOK_API_KEY"))
    }
}
