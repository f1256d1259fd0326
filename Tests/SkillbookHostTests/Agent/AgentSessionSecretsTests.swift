import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// A chat's secrets once it knows them: an answer to a `secret: true` input, and a value a run of
/// it read from a command provider, are masked in every later request to the model (a real
/// chat-completions server on 127.0.0.1) and in the messages shown back.
@Suite struct AgentSessionSecretsTests {
    static let typed = "Typ3d tok-EN/42"
    static let fromCommand = "Cmd-Pr0vided vAl"
    static let plan =
        #"{"steps":[{"id":"read","skill":"files.read","with":{"path":"notes.txt"}},{"id":"save","skill":"notes.create","with":{"title":"***","body":"${{ steps.read.output.content }}"}}]}"#

    /// Each secret with its upper- and lower-case, base64 and URL-encoded forms.
    static func forms(of secret: String) -> [String] {
        [
            secret, secret.uppercased(), secret.lowercased(), Data(secret.utf8).base64EncodedString(),
            secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
        ]
    }

    static func leaks(in text: String) -> [String] {
        (forms(of: typed) + forms(of: fromCommand)).filter { text.contains($0) }
    }

    @MainActor @Test func secretsTheChatLearnedAreMaskedInLaterModelRequestsAndMessages() async throws {
        let fixture = HostFixture()
        fixture.write("notes.txt", "buy milk\n")
        fixture.write(
            "Playbooks/sign-in.yaml",
            """
            name: sign-in
            description: Signs in to the vault.
            triggers: ["sign in to the vault"]
            inputs:
              token: { type: string, secret: true, description: the vault token }
            steps:
              - id: look
                skill: notes.list

            """)
        fixture.write(
            "Playbooks/deploy-key.yaml",
            """
            name: deploy-key
            description: Fetches the deploy key.
            triggers: ["fetch the deploy key"]
            secrets: [api]
            steps:
              - id: key
                skill: text.join
                with: { items: ["${{ secret('api') }}"] }

            """)
        let server = try LocalHTTPServer()
        defer { server.stop() }
        do {
            server.route("/v1/chat/completions") { _ in ChatCompletionBodies.content(Self.plan) }
            var configuration = fixture.configuration()
            configuration.model = ModelSettings(url: URL(string: server.url("/v1"))!, model: "qwen")
            configuration.secrets = [
                SecretDeclaration(
                    name: "api", provider: .command(["printf", "%s", Self.fromCommand], timeout: 10),
                    location: SourceLocation(file: "skillbook.yaml", line: 2, column: 8))
            ]
            let host = PlaybookHost(configuration)
            let workspace = try await host.agentWorkspace()
            let clock = AgentWorkspaceTests.clock
            let runner = HostPlanRunner(host: host, workspace: workspace, clock: clock)
            let session = AgentSession(flow: host.agentFlow(workspace, runner: runner), clock: { clock })

            await session.send("sign in to the vault")
            #expect(session.phase == .awaitingInput(["token"]), "\(session.messages.map(\.text))")
            await session.provide(Self.typed)
            #expect(session.phase == .awaitingConfirmation, "\(session.messages.map(\.text))")
            await session.confirm()
            #expect(session.phase == .finished, "\(session.messages.map(\.text))")
            #expect(session.messages.contains { $0.role == .user && $0.text == "***" }, "the answer shows masked")

            await session.send("fetch the deploy key")
            await session.confirm()
            #expect(session.phase == .finished, "\(session.messages.map(\.text))")

            let request = "read notes.txt and save it as a note titled \(Self.typed) or \(Self.typed.uppercased()) or \(Self.fromCommand)"
            await session.send(request)
            #expect(session.phase == .awaitingConfirmation, "\(session.messages.map(\.text))")
            let bodies = server.requests.filter { $0.path == "/v1/chat/completions" }.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(!bodies.isEmpty, "the model was asked")
            #expect(bodies.allSatisfy { $0.contains("titled *** or *** or ***") }, "\(bodies)")
            let sent = bodies.flatMap(Self.leaks)
            #expect(sent.isEmpty, "sent to the model: \(sent)")
            let shown = session.messages.flatMap { Self.leaks(in: $0.text) }
            #expect(shown.isEmpty, "shown in the chat: \(shown)")
            #expect(session.messages.contains { $0.role == .user && $0.text == "read notes.txt and save it as a note titled *** or *** or ***" })
        }
    }
}
