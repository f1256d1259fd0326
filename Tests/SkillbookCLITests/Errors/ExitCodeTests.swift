import Foundation
@testable import SkillbookCLI
import SkillbookTesting
import Testing

/// Every exit code comes from `ExitCode`, and README.md's table says the same.
@Suite struct ExitCodeTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rows `| CODE | MEANING |` of the table under README.md's "## Exit codes".
    static func readmeRows() throws -> [(code: Int32, meaning: String)] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let section = lines.drop { $0 != "## Exit codes" }.dropFirst().prefix { !$0.hasPrefix("## ") }
        return section.compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("|"), cells.count == 2, let code = Int32(cells[0]) else { return nil }
            return (code, cells[1])
        }
    }

    @Test func theReadmeListsEveryExitCodeWithItsSummary() throws {
        let rows = try Self.readmeRows()
        #expect(rows.map(\.code) == ExitCode.allCases.map(\.rawValue))
        for (row, code) in zip(rows, ExitCode.allCases) {
            #expect(row.meaning.hasPrefix(code.summary), "README: \(row.code) | \(row.meaning) — ExitCode.\(code): '\(code.summary)'")
        }
        #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 130])
    }

    @Test func aCommandFailureIsPrintedOnceWithThePrefixAndItsHint() {
        let captured = CapturedOutput()
        let code = SkillbookCLI.report(
            CommandFailure(messages: ["first", "second"], exitCode: .rollbackIncomplete, hint: "try this"), console: captured.console)
        #expect(code == .rollbackIncomplete)
        #expect(captured.err == "skillbook: error: first\nskillbook: error: second\ntry this\n")
        #expect(captured.out.isEmpty)
    }

    @Test func theLabelIsStyledOnlyWithColours() {
        let captured = CapturedOutput()
        var console = captured.console
        console.colors = true
        _ = SkillbookCLI.report(CommandFailure("broke", exitCode: .failure), console: console)
        #expect(captured.err == "skillbook: \u{1B}[1;31merror:\u{1B}[0m broke\n")
    }

    @Test func aUsageErrorPointsToTheCommandsHelp() {
        let captured = CapturedOutput()
        let code = SkillbookCLI.report(UsageError(message: "bad flag", command: "run"), console: captured.console)
        #expect(code == .usage)
        #expect(captured.err == "skillbook: error: bad flag\nRun 'skillbook run --help' for usage.\n")
    }

    /// Issue 27, item 12: a usage error of `run --queue` on a local state exits 2, as `worker` does,
    /// and both say it with the `skillbook:` prefix.
    @Test func queueingAndWorkingOnALocalStateAreUsageErrors() async {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/hello.yaml", "name: hello\nsteps:\n  - id: a\n    skill: debug.echo\n    with: { value: hi }\n")
        let queued = await skillbook(["run", "hello", "--queue"], in: directory)
        #expect(queued.code == 2)
        #expect(queued.out.isEmpty)
        #expect(
            queued.errLines == [
                "skillbook: error: --queue needs a state shared by machines: pass --state postgresql://USER@HOST:PORT/DATABASE "
                    + "(or set SKILLBOOK_STATE)",
                "Run 'skillbook run --help' for usage.",
            ])
        let worker = await skillbook(["worker"], in: directory)
        #expect(worker.code == 2)
        #expect(
            worker.errLines == [
                "skillbook: error: skillbook worker needs a state shared by machines: pass --state postgresql://USER@HOST:PORT/DATABASE"
            ])
    }
}
