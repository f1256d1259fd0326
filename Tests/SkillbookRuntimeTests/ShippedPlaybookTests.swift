import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookSQLite
import SkillbookTesting
import Testing

/// The text of a playbook shipped in the repository's Playbooks/ folder.
func shippedPlaybook(_ name: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("Playbooks/\(name).yaml"), encoding: .utf8)
}

/// Every file under `folder` with its size, relative path first.
func tree(_ folder: URL) throws -> [String] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])!
    return try enumerator.compactMap { item -> String? in
        guard let url = item as? URL else { return nil }
        let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? -1
        return "\(url.path.dropFirst(folder.path.count)) \(size)"
    }.sorted()
}

@Suite struct TidyDownloadsTests {
    func downloads(_ count: Int) throws -> URL {
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-tidy-\(UUID().uuidString)")
        let folder = workspace.appendingPathComponent("Downloads")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let ext = ["pdf", "pdf", "jpg", "zip", "txt"][index % 5]
            try Data("file \(index)".utf8).write(to: folder.appendingPathComponent("file\(index).\(ext)"))
        }
        return workspace
    }

    @Test func fiveHundredFilesAreSortedInBatches() async throws {
        let workspace = try downloads(500)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let fixture = try EngineFixture(workspace: workspace)
        let result = try await fixture.run(try shippedPlaybook("tidy-downloads"))
        #expect(result.status == .succeeded, "\(result.error ?? "")")
        #expect(result.outputs == ["documents": 200, "images": 100, "archives": 100])
        let progress = fixture.events.events.compactMap { event -> String? in
            if case .stepProgress(let step, let done, let total, let unit) = event, total > 1, unit != .skill { return "\(step) \(done)/\(total)" }
            return nil
        }
        #expect(progress.contains("file_documents 2/2"), "200 documents move in 2 batches of 100")
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.appendingPathComponent("Downloads").path)
        #expect(Set(left) == Set(["Documents", "Images", "Archives"] + (0..<100).map { "file\($0 * 5 + 4).txt" }))
    }

    @Test func aFailureAfterBatchThreeLeavesTheFolderExactlyAsItBegan() async throws {
        let workspace = try downloads(500)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let before = try tree(workspace)
        // Calls of files.move: documents in batches 1-2, images in 3; the 4th (archives) fails.
        let fixture = try EngineFixture(workspace: workspace, replacing: { skill in
            skill.descriptor.id == "files.move" ? FailingCall(skill, failingCalls: [4]) : nil
        })
        let result = try await fixture.run(try shippedPlaybook("tidy-downloads"))
        #expect(result.status == .rolledBack)
        #expect(result.step("file_archives")?.error == "injected failure in call 4")
        #expect(result.step("file_documents")?.status == .compensated)
        #expect(result.step("file_images")?.status == .compensated)
        #expect(try tree(workspace) == before)
    }
}

@Suite struct MorningBriefingTests {
    @Test func remindersAndPageTitlesEndUpInOneNote() async throws {
        try await withLocalHTTPServer(routes: [
            "/news": .html("<html><head><title>Rain &amp; shine</title></head><body><p>Weather.</p></body></html>"),
            "/gone": .html("<p>missing</p>", status: 404),
        ]) { server in
            let fixture = try EngineFixture()
            _ = try await fixture.run(
                """
                name: seed
                steps:
                  - { id: r, skill: reminders.create, with: { title: Call Anna, due: "2026-11-30T09:00:00Z" } }
                """)
            let result = try await fixture.run(
                try shippedPlaybook("morning-briefing"),
                inputs: ["day": "2026-11-30", "pages": [.string(server.baseURL + "/news"), .string(server.baseURL + "/gone")]])
            #expect(result.status == .succeededWithErrors, "one page is missing: \(result.error ?? "")")
            #expect(result.outputs["reminders"] == 1)
            let note = try #require(try fixture.snapshot().first)
            #expect(note.title == "Briefing 2026-11-30")
            #expect(note.body.contains("Call Anna"))
            #expect(note.body.hasSuffix("Headlines:\n- Rain & shine"))
        }
    }
}
