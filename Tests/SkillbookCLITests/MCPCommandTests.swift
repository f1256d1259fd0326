import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// `skillbook mcp` against the official Python SDK's stdio client (`Fixtures/mcp_host_client.py`,
/// run with the Python of `.build/venv` that `make test` creates): the real executable on a
/// temporary workspace, its runs checked in the journal afterwards.
@Suite struct MCPCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let checks = [
        "the handshake agrees on 2025-11-25", "playbooks first, by name", "then every skill, by id",
        "a playbook's inputSchema from its inputs", "its outputSchema is {status, run, outputs}",
        "a playbook with a confirm skill is destructive", "a query skill is read-only", "a confirm skill is destructive",
        "a playbook runs", "with its mapped outputs", "the same JSON as text", "a skill runs",
        "invalid playbook arguments are an error result", "invalid skill arguments are an error result", "and nothing ran",
        "an unknown tool is -32602", "a declined confirmation is an error result", "and nothing was deleted",
        "the elicitation shows the summary", "an accepted confirmation runs", "and the note is deleted",
        "a call with a progress token runs", "progress notifications per step", "cancelling rolls the run back",
    ]

    static func workspace() -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/note.yaml",
            """
            name: note
            description: Saves a note and says what it saved.
            inputs:
              title: { type: string, minLength: 1 }
            steps:
              - id: greet
                skill: text.template
                with: { template: "Note: {{t}}", values: { t: "${{ inputs.title }}" } }
              - id: save
                skill: notes.create
                with: { title: "${{ inputs.title }}", body: "${{ steps.greet.output.text }}" }
            outputs:
              id: "${{ steps.save.output.id }}"
              title: "${{ steps.save.output.title }}"
            """)
        directory.write(
            "Playbooks/purge.yaml",
            """
            name: purge
            inputs:
              id: { type: string }
            steps:
              - id: delete
                skill: notes.delete
                with: { ids: ["${{ inputs.id }}"] }
            """)
        directory.write(
            "Playbooks/slow.yaml",
            """
            name: slow
            inputs:
              title: { type: string }
            steps:
              - id: save
                skill: notes.create
                with: { title: "${{ inputs.title }}" }
              - id: wait
                skill: debug.sleep
                with: { seconds: 60 }
            """)
        return directory
    }

    @Test func thePythonClientUsesTheRealServer() async throws {
        let python = "\(Self.packageRoot)/.build/venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("\(python) is missing: run 'make venv' (or 'make test', which creates it with PyPI 'mcp')")
            return
        }
        let directory = Self.workspace()
        let script = "\(Self.packageRoot)/Tests/SkillbookCLITests/Fixtures/mcp_host_client.py"
        let client = try SkillbookChild(
            [script, try builtExecutable().path, directory.path, directory.state.path], in: directory.url,
            executable: URL(fileURLWithPath: python))
        let code = try await client.waitForExit(upTo: 120)
        let lines = client.stdout.text.split(separator: "\n").map(String.init)
        #expect(lines == Self.checks.map { "ok: \($0)" }, "\(client.transcript)")
        #expect(code == 0)

        // Every call ran as a journaled run with trigger mcp (the declined one left none; the
        // polls of notes.list are left out).
        let runs = try await runSkillbook(["runs", "--json", "--limit", "100", "--state", directory.state.path], in: directory.url)
        let rows = try #require(try parseJSON(runs.out) as? [[String: Any]])
        let summary = rows.reversed().map { "\($0["playbook"] ?? "") \($0["status"] ?? "") \($0["trigger"] ?? "")" }
        #expect(
            summary.filter { !$0.hasPrefix("notes.list ") } == [
                "note succeeded mcp", "text.template succeeded mcp", "purge succeeded mcp", "note succeeded mcp",
                "slow rolled_back mcp",
            ])
    }
}
