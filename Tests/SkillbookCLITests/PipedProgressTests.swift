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
        #expect(progress == (1...13).map { "    copy: batch \($0)/13 (\($0 * 10)/130 items)" }, "\(run.err)")
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
        #expect(
            progress == (1...3).map { "    each: item \($0)/3" } + (1...24).map { "    save: batch \($0)/24 (\(Self.grouped($0 * 50))/1,200 items)" },
            "\(run.err)")
    }

    static func grouped(_ number: Int) -> String { number >= 1000 ? "\(number / 1000),\(String(format: "%03d", number % 1000))" : "\(number)" }
}
