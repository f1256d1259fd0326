import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookSystem
import SkillbookTesting
import Synchronization
import Testing

/// Every message a planner sends through `MaskedChatClient` is masked with the secrets known at
/// the time it is sent — the request, and a repair that quotes the model's own answer — on a real
/// chat-completions server on 127.0.0.1.
@Suite struct MaskedChatClientTests {
    static let secret = "Zq9-Late S3cret"

    @Test func aSecretLearnedAfterThePlannerWasBuiltIsMaskedInTheRequestAndTheRepair() async throws {
        let answers = Mutex([
            // Refused by the checker (no such skill), quoting the secret: the repair sends it back.
            completionBody(content: #"{"steps":[{"id":"s","skill":"web.search","with":{"query":"\#(Self.secret)"}}]}"#),
            completionBody(content: #"{"steps":[{"id":"ls","skill":"notes.list","with":{}}]}"#),
        ])
        try await withLocalHTTPServer { server in
            server.route("/v1/chat/completions") { _ in
                .text(answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }, contentType: "application/json")
            }
            let book = SecretBook()
            let client = OpenAIChatClient(http: SystemHTTPClient(), baseURL: URL(string: server.url("/v1"))!, model: "qwen")
            let planner = Planner(
                client: MaskedChatClient(client, secrets: book), checker: shippedChecker, prompt: berlinPrompt,
                budget: PlanningBudget(samples: 0))
            book.add([Self.secret])
            let report = await planner.plan("list my notes, then look up \(Self.secret)", offers: offers("notes.list"))
            guard case .plan = report.outcome else {
                Issue.record("\(report.outcome)")
                return
            }
            let bodies = server.requests.map(\.text)
            #expect(bodies.count == 2, "the request and one repair")
            #expect(bodies.allSatisfy { $0.contains("look up ***") }, "\(bodies)")
            #expect(bodies.last?.contains(#"\"query\":\"***\""#) == true, "the repair quotes the answer masked: \(bodies.last ?? "")")
            let forms = [
                Self.secret, Self.secret.uppercased(), Self.secret.lowercased(), Data(Self.secret.utf8).base64EncodedString(),
                Self.secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? Self.secret,
            ]
            #expect(bodies.allSatisfy { body in !forms.contains { body.contains($0) } }, "\(bodies)")
        }
    }
}
