import SkillbookTesting
import Foundation
import Testing

/// Issue 10 item 18: a dry run prints no run id (none is recorded), marks actions `would run`
/// (never ✓), shows the outputs it cannot know as `unknown`, and shortens long lists.
@Suite struct DryRunTests {
    static let playbook = """
        name: dry
        steps:
          - id: ls
            skill: files.list
            with: { root: in, limit: 1000 }
          - id: copy
            skill: files.copy
            with: { paths: "${{ steps.ls.output.items.*.path }}", into: out }
          - id: note
            skill: notes.create
            with: { title: "copied ${{ length(steps.copy.output.copied) }}" }
        outputs:
          copied: "${{ steps.copy.output.copied }}"
          count: "${{ steps.ls.output.count }}"
          note: "${{ length(steps.note.output.id) }}"

        """

    static func folder() -> (TemporaryDirectory, URL) {
        let directory = TemporaryDirectory()
        for number in 1...130 { directory.write("in/f\(String(format: "%03d", number)).txt", "\(number)\n") }
        return (directory, directory.write("dry.yaml", Self.playbook))
    }

    @Test func thePlanSaysWhatWouldRunAndWhatIsUnknown() async throws {
        let (directory, file) = Self.folder()
        let run = try await runSkillbook(["run", file.path, "--dry-run", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.first == "▶ dry (dry run: nothing is recorded)")
        #expect(!run.err.contains("(run "), "no run id: \(run.err)")
        #expect(lines.contains("  ls: files.list (query) · ran (read-only)"))
        #expect(
            lines.contains(
                "  copy: files.copy (action) · would run · 2 batches · with 130 paths: in/f001.txt, in/f002.txt, … (128 more); into: out · can be rolled back"),
            "\(run.err)")
        #expect(lines.contains("  note: notes.create (action) · would run · parameters unknown until 'copy' runs · can be rolled back"))
        #expect(!lines.contains { $0.contains("✓ copy") || $0.contains("✓ note") }, "planned actions are not shown as done")
        #expect(lines.contains { $0.hasPrefix("  ✓ ls ") })
        #expect(run.out == "{\n  \"count\": 130,\n  \"copied\": unknown,\n  \"note\": unknown\n}\n")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("out").path))
        let runs = try await runSkillbook(["runs", "--state", directory.state.path], in: directory.url)
        #expect(runs.err.hasPrefix("no runs recorded in "), "a dry run is not recorded")
    }

    @Test func withJSONTheRunHasNoIdAndTheUnknownOutputsAreListed() async throws {
        let (directory, file) = Self.folder()
        let run = try await runSkillbook(["run", file.path, "--dry-run", "--json", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let events = SkillbookChild.events(in: run.out)
        #expect(events.first?["dry_run"] as? Bool == true)
        #expect(events.allSatisfy { $0["run"] == nil })
        #expect(!events.contains { $0["type"] as? String == "step.succeeded" && ["copy", "note"].contains($0["step"] as? String) })
        let finished = try #require(events.last)
        #expect(finished["outputs"] as? [String: Int] == ["count": 130])
        #expect(finished["unknown_outputs"] as? [String] == ["copied", "note"])
        let steps = try #require(finished["steps"] as? [[String: Any]])
        #expect(steps.compactMap { $0["status"] as? String } == ["succeeded", "planned", "planned"])
    }

    /// Issue 27 item 3: a `when` that reads an action's unknown output is unknown too: the step is
    /// planned (a query is not run), never "skipped: 'when' is false", and its outputs unknown.
    @Test func aWhenThatReadsAnUnknownOutputPlansTheStep() async throws {
        let directory = TemporaryDirectory()
        directory.write("in/a.txt", "a\n")
        let file = directory.write(
            "when.yaml",
            """
            name: when
            steps:
              - id: note
                skill: notes.create
                with: { title: made }
              - id: read
                skill: files.read
                when: "${{ steps.note.output.id != '' }}"
                with: { path: in/a.txt }
            outputs:
              text: "${{ steps.read.output.content }}"

            """)
        let run = try await runSkillbook(["run", file.path, "--dry-run", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.contains("  read: files.read (query) · would run · parameters unknown until 'note' runs"), "\(run.err)")
        #expect(!run.err.contains("'when' is false"), "\(run.err)")
        #expect(run.out == "{\n  \"text\": unknown\n}\n")
    }

    /// Issue 27 item 4: a query that reads what an earlier planned action would create is "not
    /// checkable until" that action runs, and a dry run that fails is `failed`, never rolled back.
    @Test func aQueryOfWhatAPlannedActionCreatesIsNotCheckableYet() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "pack.yaml",
            """
            name: pack
            steps:
              - id: pack
                skill: files.write
                with: { path: out/x.txt, content: hi }
              - id: sum
                skill: files.read
                with: { path: out/x.txt }
            outputs:
              text: "${{ steps.sum.output.content }}"

            """)
        let run = try await runSkillbook(["run", file.path, "--dry-run", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("  sum: files.read (query) · would run · not checkable until 'pack' runs (now: ") },
            "\(run.err)")
        #expect(run.out == "{\n  \"text\": unknown\n}\n")

        let alone = directory.write(
            "alone.yaml", "name: alone\nsteps:\n  - id: sum\n    skill: files.read\n    with: { path: missing.txt }\n")
        let failed = try await runSkillbook(["run", alone.path, "--dry-run", "--state", directory.state.path], in: directory.url)
        #expect(failed.code == 1, "\(failed.err)")
        #expect(!failed.err.contains("rolled back") && !failed.err.contains("rolled_back"), "\(failed.err)")
    }

    /// Only a failure of the query's skill may wait for a planned action: a path outside the
    /// allowed folders is an error of the dry run even after one.
    @Test func aQueryRefusedForItsPathAfterAPlannedActionFailsTheDryRun() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "peek.yaml",
            "name: peek\nsteps:\n  - id: pack\n    skill: files.write\n    with: { path: out/x.txt, content: hi }\n"
                + "  - id: peek\n    skill: files.read\n    with: { path: /etc/hostname }\n")
        let run = try await runSkillbook(["run", file.path, "--dry-run", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 1, "\(run.err)")
        #expect(run.err.contains("outside the allowed folders"), "\(run.err)")
        #expect(!run.err.contains("not checkable until"), "\(run.err)")
    }
}
