import SkillbookTesting
import Foundation
import Testing

/// Issue 10 item 17: progress written to a pipe or file is one line per batch, with the items the
/// batches carried; the skill's own per-item counts are left to the live display of a terminal.
@Suite struct PipedProgressTests {
    @Test func aBatchedStepPrintsOneLinePerBatch() async throws {
        let directory = TemporaryDirectory()
        for number in 1...130 { directory.write("in/file\(number).txt", "\(number)\n") }
        let file = directory.write(
            "copy.yaml",
            """
            name: copy
            steps:
              - id: ls
                skill: files.list
                with: { root: in, limit: 1000 }
              - id: copy
                skill: files.copy
                batch: { size: 10 }
                with: { paths: "${{ steps.ls.output.items.*.path }}", into: out }

            """)
        let run = try await runSkillbook(["run", file.path, "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let progress = run.err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("    ") }
        // At most one line a second plus the last (issue 27): the first batch and the last, and
        // only what a slow second let through between them.
        let all = (1...13).map { "    copy: batch \($0)/13 (\($0 * 10)/130 items)" }
        #expect(progress.first == all.first && progress.last == all.last, "\(run.err)")
        #expect(Self.inOrder(progress, of: all) && progress.count < all.count, "\(run.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("out").path).count == 130)
    }

    @Test func foreachPrintsOneLinePerItemAndThousandsAreGrouped() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "many.yaml",
            """
            name: many
            inputs:
              titles: { type: array, items: { type: object } }
            steps:
              - id: each
                skill: debug.echo
                foreach: "${{ [1, 2, 3] }}"
                with: { value: "${{ item }}" }
              - id: save
                skill: notes.create_many
                with: { notes: "${{ inputs.titles }}" }

            """)
        let titles = (1...1_200).map { "{title: n\($0)}" }.joined(separator: ", ")
        let run = try await runSkillbook(["run", file.path, "-i", "titles=[\(titles)]", "--state", directory.state.path], in: directory.url)
        #expect(run.code == 0, "\(run.err)")
        let progress = run.err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("    ") }
        let each = (1...3).map { "    each: item \($0)/3" }
        let save = (1...24).map { "    save: batch \($0)/24 (\(Self.grouped($0 * 50))/1,200 items)" }
        #expect(Self.inOrder(progress, of: each + save), "\(run.err)")
        #expect(progress.filter { $0.hasPrefix("    each") }.first == each.first, "\(run.err)")
        #expect(progress.filter { $0.hasPrefix("    each") }.last == each.last, "\(run.err)")
        #expect(progress.filter { $0.hasPrefix("    save") }.first == save.first, "\(run.err)")
        #expect(progress.filter { $0.hasPrefix("    save") }.last == save.last, "\(run.err)")
    }

    /// Issue 27 friction: a 5,000-item foreach piped writes at most one progress line a second,
    /// plus the last — not 5,000.
    @Test func aLongForeachWritesAtMostOneLineASecondPlusTheLast() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "long.yaml",
            """
            name: long
            inputs:
              items: { type: array, items: { type: integer } }
            steps:
              - id: each
                skill: debug.echo
                foreach: "${{ inputs.items }}"
                concurrency: 50
                with: { value: "${{ item }}" }

            """)
        let inputs = directory.write("inputs.yaml", "items: [\((0..<5000).map(String.init).joined(separator: ", "))]\n")
        let started = Date()
        let run = try await runSkillbook(["run", file.path, "--inputs", inputs.path, "--state", directory.state.path], in: directory.url)
        let seconds = Date().timeIntervalSince(started)
        #expect(run.code == 0, "\(run.err)")
        let progress = run.err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("    ") }
        #expect(progress.first == "    each: item 1/5000", "\(run.err)")
        #expect(progress.last == "    each: item 5000/5000", "\(run.err)")
        #expect(progress.count <= 2 + Int(seconds), "\(progress.count) lines in \(seconds) s")
    }

    /// Whether `lines` are some of `all`, in their order.
    static func inOrder(_ lines: [String], of all: [String]) -> Bool {
        var rest = all[...]
        for line in lines {
            guard let index = rest.firstIndex(of: line) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    static func grouped(_ number: Int) -> String { number >= 1000 ? "\(number / 1000),\(String(format: "%03d", number % 1000))" : "\(number)" }
}
