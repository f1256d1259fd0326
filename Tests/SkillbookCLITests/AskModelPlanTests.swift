import Foundation
import SkillbookCore
import SkillbookTesting
import Synchronization
import Testing

/// `ask` with layer 3: a real chat-completions server on 127.0.0.1 answering from a script.
@Suite struct AskModelPlanTests {
    static let request = "read notes.txt and save it as a note"
    static let plan =
        #"{"steps":[{"id":"read","skill":"files.read","with":{"path":"notes.txt"}},{"id":"save","skill":"notes.create","with":{"title":"From notes.txt","body":"${{ steps.read.output.content }}"}}]}"#
    static let unknownSkill = #"{"steps":[{"id":"find","skill":"web.search","with":{"query":"notes"}}]}"#

    /// A workspace with `notes.txt`, and a model serving `answers` in order (the last one again).
    static func withModel(
        _ answers: [String], _ body: (TemporaryDirectory, [String: String], LocalHTTPServer) async throws -> Void
    ) async throws {
        let directory = askWorkspace()
        directory.write("notes.txt", "buy milk\n")
        let queue = Mutex(answers.map { ChatCompletionBodies.content($0) })
        try await withLocalHTTPServer { server in
            server.route("/v1/chat/completions") { _ in queue.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } }
            let environment = ["SKILLBOOK_MODEL_URL": server.url("/v1"), "SKILLBOOK_MODEL": "qwen", "HOME": directory.path]
            try await body(directory, environment, server)
        }
    }

    @Test func explainShowsTheCheckedPlanAndRunsNothing() async throws {
        try await Self.withModel([Self.plan]) { directory, environment, server throws in
            let run = await skillbook(["ask", Self.request, "--explain", "--json"] + berlin, in: directory, environment: environment)
            #expect(run.code == 0, "\(run.err)")
            let decision = try JSONText.decode(run.out)
            #expect(decision["layer"] == "plan")
            #expect(decision["target"] == .null)
            #expect(
                JSONText.encode(decision["plan"] ?? .null)
                    == #"[{"id":"read","skill":"files.read","with":{"path":"notes.txt"}},{"id":"save","skill":"notes.create","with":{"title":"From notes.txt","body":"${{ steps.read.output.content }}"}}]"#
            )
            #expect(server.requests.count == 1)
            #expect(try askNotes(in: directory).isEmpty)
            #expect(try await journaledRuns(in: directory).isEmpty)
        }
    }

    /// A request no part of which anything here covers is declined, and the model is not asked.
    @Test func aRequestNothingHereCoversIsDeclinedWithoutAskingTheModel() async throws {
        try await Self.withModel([Self.plan]) { directory, environment, server throws in
            let run = await skillbook(["ask", "book a flight to Paris for next Friday", "--yes"] + berlin, in: directory, environment: environment)
            #expect(run.code == 2)
            #expect(run.err.contains("nothing here can do any part of this request, so the model was not asked to plan it."), "\(run.err)")
            #expect(server.requests.isEmpty)
            #expect(try await journaledRuns(in: directory).isEmpty)
        }
    }

    @Test func aConfirmedPlanRunsOnTheEngineAndIsJournaled() async throws {
        try await Self.withModel([Self.plan]) { directory, environment, _ throws in
            let run = await skillbook(["ask", Self.request, "--yes"] + berlin, in: directory, environment: environment)
            #expect(run.code == 0, "\(run.err)")
            #expect(run.err.contains("Plan from the model (2 steps):\n  1. read: files.read\n       path: \"notes.txt\"\n  2. save: notes.create  [action: asks before it runs]\n"))
            let saved = try askNotes(in: directory)
            #expect(saved.map(\.title) == ["From notes.txt"])
            #expect(saved.first?.body == "buy milk\n")
            #expect(try await journaledRuns(in: directory) == ["ask-plan"])
            #expect(try JSONText.decode(run.out)["title"] == "From notes.txt")
        }
    }

    @Test func aPlanWithActionsIsNotRunWithoutConfirmation() async throws {
        try await Self.withModel([Self.plan]) { directory, environment, _ throws in
            let run = await skillbook(["ask", Self.request] + berlin, in: directory, environment: environment)
            #expect(run.code == 2)
            #expect(run.errLines.last == "skillbook: error: 'notes.create' changes something and needs confirmation; no terminal to ask on: pass --yes. Nothing ran.")
            #expect(try askNotes(in: directory).isEmpty)
            #expect(try await journaledRuns(in: directory).isEmpty)
        }
    }

    @Test func aRefusedPlanRunsNothing() async throws {
        try await Self.withModel([Self.unknownSkill]) { directory, environment, server throws in
            let run = await skillbook(["ask", Self.request, "--yes"] + berlin, in: directory, environment: environment)
            #expect(run.code == 2)
            #expect(run.errLines.contains("skillbook: error: the model's plan did not pass the checker after a repair; nothing ran"))
            #expect(run.errLines.contains { $0.hasPrefix("  - ") && $0.contains("web.search") })
            // The first answer, two samples, one repair; the refusal says so, and what to do instead.
            #expect(server.requests.count == 4)
            #expect(run.errLines.contains { $0.hasPrefix("  - tried 4 model calls in ") && $0.hasSuffix("repair at temperature 0, skeleton schema: a plan that failed the checks") }, "\(run.err)")
            #expect(run.errLines.contains("  - " + "to do it anyway, say the steps one by one with their values (\"read /tmp/a.txt, then save it as a note titled A\"), or write them as a playbook (skillbook new)"))
            #expect(try askNotes(in: directory).isEmpty)
            #expect(try await journaledRuns(in: directory).isEmpty)
        }
    }

    @Test func aSavedPlanValidatesConfirmsItsActionsAndRunsTheSame() async throws {
        try await Self.withModel([Self.plan]) { directory, environment, _ throws in
            let run = await skillbook(["ask", Self.request, "--save", "from-notes.yaml", "--explain"] + berlin, in: directory, environment: environment)
            #expect(run.code == 0, "\(run.err)")
            let text = try String(contentsOf: directory.url.appendingPathComponent("from-notes.yaml"), encoding: .utf8)
            #expect(
                text == """
                    name: from-notes
                    description: "read notes.txt and save it as a note"
                    steps:
                      - id: "read"
                        skill: "files.read"
                        with:
                          "path": "notes.txt"
                      - id: "save"
                        skill: "notes.create"
                        confirm: true
                        with:
                          "title": "From notes.txt"
                          "body": "${{ steps.read.output.content }}"
                    outputs:
                      read: "${{ steps.read.output }}"
                      save: "${{ steps.save.output }}"

                    """)
            let validated = await skillbook(["validate", "from-notes.yaml"], in: directory)
            #expect(validated.code == 0, "\(validated.err)")
            let waiting = await skillbook(["run", "from-notes.yaml"], in: directory)
            #expect(waiting.code == 4, "\(waiting.err)")
            #expect(try askNotes(in: directory).isEmpty)
            let again = await skillbook(["run", "from-notes.yaml", "--yes"], in: directory)
            #expect(again.code == 0, "\(again.err)")
            #expect(try askNotes(in: directory).map(\.body) == ["buy milk\n"])
            // Its run prints the steps' outputs, as any run prints its playbook's.
            #expect(try JSONText.decode(again.out)["save"]?["title"]?.stringValue == "From notes.txt", "\(again.out)")
        }
    }

    @Test func aModelQuestionIsShownAndNothingRuns() async throws {
        try await Self.withModel([#"{"question":"Which file should I read?"}"#]) { directory, environment, _ throws in
            let run = await skillbook(["ask", Self.request, "--yes"] + berlin, in: directory, environment: environment)
            #expect(run.code == 2)
            #expect(run.errLines.last == "skillbook: the model asks: Which file should I read?")
            #expect(try await journaledRuns(in: directory).isEmpty)
        }
    }

    /// Issue 26: a near tie with a model configured is put to it; its choice runs as a route and
    /// `ask` says whose choice it was.
    @Test func anUnsureRouteIsChosenByTheModelAndSaysSo() async throws {
        try await Self.withModel([#"{"choice":"notes.list","with":{}}"#]) { directory, environment, server throws in
            let run = await skillbook(["ask", "my notes please?", "--yes"] + berlin, in: directory, environment: environment)
            #expect(run.code == 0, "\(run.err)")
            #expect(run.errLines.first?.hasPrefix("Unsure between day-note, notes.create, notes.list") == true, "\(run.err)")
            #expect(run.errLines.first?.hasSuffix("; asking the model (qwen)…") == true, "\(run.err)")
            #expect(run.err.contains("Understood: skill notes.list (the model's choice; the matcher was unsure, at 0."), "\(run.err)")
            #expect(server.requests.count == 1)
            let explained = await skillbook(["ask", "my notes please?", "--explain", "--json"] + berlin, in: directory, environment: environment)
            #expect(explained.code == 0, "\(explained.err)")
            #expect(try JSONText.decode(explained.out)["second_opinion"] == true)
            #expect(try JSONText.decode(explained.out)["target"] == "notes.list")
        }
    }
}
