import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// Every ```swift block of `docs/embedding.md` is compiled: the page's blocks must equal
/// `EmbeddingDocExamples.swift` (part of this target), block by block, and the examples run.
@Suite struct EmbeddingDocTests {
    static let marker = "// --- docs/embedding.md block ---\n"
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced ```swift blocks of a Markdown text, in order.
    static func swiftBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```swift" { current = [] }
            } else if line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test func pageAndCompiledCopyAgree() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        let copy = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/SkillbookHostTests/EmbeddingDocExamples.swift"), encoding: .utf8)
        let documented = Self.swiftBlocks(of: page)
        let compiled = copy.components(separatedBy: Self.marker).dropFirst().map { $0.trimmingCharacters(in: .newlines) }
        #expect(!documented.isEmpty, "docs/embedding.md has no ```swift block")
        #expect(
            documented.count == compiled.count,
            "docs/embedding.md has \(documented.count) swift blocks, EmbeddingDocExamples.swift \(compiled.count): edit both together")
        for (index, (doc, code)) in zip(documented, compiled).enumerated() where doc.trimmingCharacters(in: .newlines) != code {
            Issue.record(
                "swift block \(index + 1) of docs/embedding.md differs from its compiled copy in Tests/SkillbookHostTests/EmbeddingDocExamples.swift:\n--- doc\n\(doc)\n--- compiled\n\(code)")
        }
    }

    /// The examples do what the page says, on a workspace holding the shipped `hello-notes`.
    @Test func examplesRun() async throws {
        let workspace = TemporaryDirectory()
        let playbook = try String(contentsOf: Self.root.appendingPathComponent("Playbooks/hello-notes.yaml"), encoding: .utf8)
        workspace.write("Playbooks/hello-notes.yaml", playbook)
        let host = try makeHost(in: workspace.url, environment: ["SKILLBOOK_HOME": workspace.state.path, "TZ": "UTC"])

        let run = try await runHelloNotes(with: host)
        #expect(run.status == .succeeded, "\(run.error ?? "")")
        #expect(run.outputs["greeting"] == "Hello, Ada!")

        let notes = try await listNotes(with: host)
        #expect(notes?["count"] == 1)

        let undone = try await undoNewestRun(with: host)   // the notes.list call: nothing to undo
        #expect(undone.status == .rolledBack)

        await #expect(throws: HostError.self) { try await resumeRun(run.runID, with: host) }   // it finished
    }
}
