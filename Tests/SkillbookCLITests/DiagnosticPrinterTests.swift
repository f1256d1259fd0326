import SkillbookCore
import Synchronization
import Testing

@testable import SkillbookCLI

@Suite struct DiagnosticPrinterTests {
    /// What a printer wrote to stderr, line by line.
    final class Lines: Sendable {
        private let text = Mutex("")
        func append(_ more: String) { text.withLock { $0 += more } }
        var all: [String] { text.withLock { $0 }.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    static func printer(_ sources: [String: String], into lines: Lines) -> DiagnosticPrinter {
        DiagnosticPrinter(console: Console(writeOut: { _ in }, writeErr: { lines.append($0) }), sources: sources)
    }

    @Test func printsTheLineOfEachDiagnosticInALongFileAndOnlyThose() {
        let text = (1...3_000).map { "line \($0):\tvalue" }.joined(separator: "\n")
        let lines = Lines()
        let printer = Self.printer(["big.yaml": text, "other.yaml": "first\nsecond"], into: lines)
        printer.print([
            .error("at the start", at: SourceLocation(file: "big.yaml", line: 1, column: 1)),
            .error("in the middle", at: SourceLocation(file: "big.yaml", line: 1_500, column: 6)),
            .warning("another file", at: SourceLocation(file: "other.yaml", line: 2, column: 3)),
            .error("at the end", at: SourceLocation(file: "big.yaml", line: 3_000, column: 10)),
            .error("past the end", at: SourceLocation(file: "big.yaml", line: 3_001, column: 1)),
        ])
        #expect(
            lines.all == [
                "big.yaml:1:1: error: at the start",
                " 1 | line 1: value",
                "   | ^",
                "big.yaml:1500:6: error: in the middle",
                " 1500 | line 1500: value",
                "      |      ^",
                "other.yaml:2:3: warning: another file",
                " 2 | second",
                "   |   ^",
                "big.yaml:3000:10: error: at the end",
                " 3000 | line 3000: value",
                "      |          ^",
                "big.yaml:3001:1: error: past the end",
                "4 errors, 1 warning",
                "",
            ])
    }

    @Test func oneDiagnosticAloneStillShowsItsLine() {
        let lines = Lines()
        Self.printer(["a.yaml": "x: 1\ny: 2"], into: lines).print(.error("bad y", at: SourceLocation(file: "a.yaml", line: 2, column: 4)))
        #expect(lines.all == ["a.yaml:2:4: error: bad y", " 2 | y: 2", "   |    ^", ""])
    }
}

extension DiagnosticPrinterTests {
    @Test func showsTheLineOfAFileWithCarriageReturnsWithoutThem() {
        let lines = Lines()
        Self.printer(["crlf.yaml": "name: x\r\nsteps: 3\r\n"], into: lines)
            .print(.error("steps must be a list", at: SourceLocation(file: "crlf.yaml", line: 2, column: 8)))
        #expect(lines.all == ["crlf.yaml:2:8: error: steps must be a list", " 2 | steps: 3", "   |        ^", ""])
    }
}
