import Foundation
import SkillbookCore

/// Prints diagnostics compiler-style, with the source line and a caret under the column:
///
///     Playbooks/x.yaml:12:7: error: step 'save' parameter 'title' expects string, got integer
///        12 |       title: 42
///           |              ^
struct DiagnosticPrinter {
    var console: Console
    /// Source text by file name, for the line under each diagnostic.
    var sources: [String: String] = [:]

    func print(_ diagnostics: [Diagnostic]) {
        var lines = SourceLines(sources: sources)
        for diagnostic in diagnostics { print(diagnostic, lines: &lines) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if errors + warnings > 1 {
            console.err("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
    }

    func print(_ diagnostic: Diagnostic) {
        var lines = SourceLines(sources: sources)
        print(diagnostic, lines: &lines)
    }

    private func print(_ diagnostic: Diagnostic, lines: inout SourceLines) {
        let label: String =
            switch diagnostic.severity {
            case .error: console.style("error:", "1;31")
            case .warning: console.style("warning:", "1;33")
            case .note: console.style("note:", "1;36")
            }
        var prefix = ""
        if let location = diagnostic.location {
            prefix = "\(location): "
        } else if let path = diagnostic.path {
            prefix = "\(path): "
        }
        console.err("\(console.style(prefix, "1"))\(label) \(diagnostic.message)")
        if let location = diagnostic.location, let line = lines.line(location.line, of: location.file) {
            let number = String(location.line)
            let gutter = String(repeating: " ", count: number.count)
            let expanded = String(line.prefix(300).map { $0 == "\t" ? " " : $0 })
            console.err(" \(number) | \(expanded)")
            console.err(" \(gutter) | \(String(repeating: " ", count: max(0, location.column - 1)))\(console.style("^", "1;32"))")
        }
        if let hint = diagnostic.hint {
            console.err("\(console.style("note:", "1;36")) \(hint)")
        }
    }

}

/// The lines of each source, split once, the first time a diagnostic points into it: splitting the
/// whole text again for every diagnostic made `validate` of a 29,000-line playbook with 2,900
/// errors take 100 s.
private struct SourceLines {
    let sources: [String: String]
    private var split: [String: [Substring]] = [:]

    init(sources: [String: String]) { self.sources = sources }

    /// Line `number` (from 1) of `file`, or nil.
    mutating func line(_ number: Int, of file: String) -> Substring? {
        if split[file] == nil, let text = sources[file] {
            // At line feeds over bytes (by characters it cost ~400 instructions a character; a line
            // feed always ends a character, and a carriage return before it is dropped below).
            split[file] = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        }
        guard let lines = split[file], number >= 1, number <= lines.count else { return nil }
        let line = lines[number - 1]
        return line.utf8.last == UInt8(ascii: "\r") ? line.dropLast() : line
    }
}
