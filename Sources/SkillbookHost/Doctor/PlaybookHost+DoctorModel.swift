import Foundation
import SkillbookAgent
import SkillbookCore

extension PlaybookHost {
    /// The schema `doctor` asks the model to answer under: `{"ok": true}`.
    static let doctorSchema: Value = [
        "type": "object", "properties": ["ok": ["type": "boolean"]], "required": ["ok"], "additionalProperties": false,
    ]

    /// The configured model, asked what the planner asks of it: a chat completion constrained by a
    /// JSON Schema (`response_format` of type `json_schema`, as `PlanSchema` sends it) whose answer
    /// must be JSON of that schema. Tells apart a server that cannot be reached, one that refuses
    /// the request (an HTTP error: often a server without structured output), and one whose answer
    /// does not keep to the schema.
    func modelCheck(http: any HTTPClient) async -> DoctorCheck {
        guard let model = configuration.model else {
            return DoctorCheck("model", .ok, "none configured ('ask' and 'chat' use playbooks and skills only)")
        }
        let client = OpenAIChatClient(http: http, baseURL: model.url, model: model.model, apiKey: model.apiKey)
        let request = ChatRequest(
            messages: [
                ChatMessage(.system, "You check that this server answers in JSON. Answer with the JSON object {\"ok\": true} and nothing else."),
                ChatMessage(.user, "Are you there?"),
            ],
            temperature: 0, maxTokens: 32, responseFormat: PlanSchema.responseFormat(schema: Self.doctorSchema),
            timeout: min(model.budget.maxSeconds, 60))
        let url = model.url.absoluteString
        let named = model.model.map { " (model \($0))" } ?? ""
        let response: ChatResponse
        do {
            response = try await client.complete(request)
        } catch let error as ChatError {
            switch error.kind {
            case .transport, .timedOut:
                return DoctorCheck(
                    "model", .failed, error.message,
                    fix: "start the model server, or correct model.url in skillbook.yaml (or SKILLBOOK_MODEL_URL)")
            case .http(let status) where status == 401 || status == 403:
                return DoctorCheck(
                    "model", .failed, "\(url) refused the key: \(error.message)", fix: "set SKILLBOOK_API_KEY (or model.api_key) to a valid key")
            case .http:
                return DoctorCheck(
                    "model", .failed, "\(url) is reachable but refused the schema request: \(error.message)",
                    fix: "use a server and model that take response_format json_schema (llama.cpp server, vLLM, Ollama, OpenAI), "
                        + "or correct model.model")
            case .tooLarge, .malformed:
                return DoctorCheck(
                    "model", .failed, "\(url) is reachable but its answer is not a chat completion: \(error.message)",
                    fix: "point model.url at an OpenAI-compatible /v1 endpoint")
            }
        } catch {
            return DoctorCheck("model", .failed, Self.firstLine(of: error), fix: "start the model server, or correct model.url in skillbook.yaml")
        }
        let content = response.content ?? ""
        guard let answer = try? JSONText.decode(content), case .bool(_)? = answer["ok"], answer.objectValue?.count == 1 else {
            return DoctorCheck(
                "model", .failed, "\(url)\(named) answers, but not in the schema it was given: \(Self.snippet(content))",
                fix: "use a server that enforces response_format json_schema (llama.cpp server, vLLM, Ollama, OpenAI)")
        }
        return DoctorCheck("model", .ok, "\(url)\(named) answers the schema request")
    }

    /// At most 80 characters of `text` on one line, quoted.
    static func snippet(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 80 ? "'\(flat.prefix(80))…'" : "'\(flat)'"
    }
}
