import Foundation
import SkillbookTesting
import Testing

/// Issue 27 item 10: `rollback` of a run killed during the call of an idempotent action whose undo
/// needs only its parameters (as `archive.create`) undoes that call too: the half-written file goes.
@Suite struct KilledArchiveRollbackTests {
    /// Writes part of its file, then works on (sleeps) until it is killed; undo removes the file.
    static let manifest = """
        id: demo.pack
        summary: Writes an archive slowly.
        kind: action
        parameters:
          type: object
          properties:
            archive: { type: string, format: path, access: write }
          required: [archive]
        run: [sh, -c, "echo partial > \\"$0\\"; exec sleep 30", "${{ params.archive }}"]
        undo: [rm, -f, --, "${{ params.archive }}"]
        idempotent: true
        timeout: 1m

        """

    @Test func theHalfWrittenFileOfAKilledCallIsRemoved() async throws {
        let directory = TemporaryDirectory()
        directory.write("Skills/pack.yaml", Self.manifest)
        let file = directory.write("pack.yaml", "name: pack\nsteps:\n  - { id: pack, skill: demo.pack, with: { archive: half.tar.gz } }\n")
        let half = directory.path + "/half.tar.gz"
        let state = ["--state", directory.state.path]

        let child = try SkillbookChild(["run", file.path, "--json"] + state, in: directory.url)
        let killed = try await child.kill(SIGKILL) { _ in FileManager.default.fileExists(atPath: half) }
        try #require(killed, "the call never started\n\(child.transcript)")
        let runID = try #require(child.events.first?["run"] as? String)
        #expect(FileManager.default.fileExists(atPath: half))

        let undo = try await runSkillbook(["rollback", String(runID.prefix(8))] + state, in: directory.url)
        #expect(undo.code == 0, "\(undo.err)")
        #expect(undo.err.contains("  ↶ pack undone\n"), "\(undo.err)")
        #expect(!FileManager.default.fileExists(atPath: half), "the half-written archive is removed")
    }
}
