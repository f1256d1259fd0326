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
        for diagnostic in diagnostics { print(diagnostic) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if errors + warnings > 1 {
            console.err("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
    }

    func print(_ diagnostic: Diagnostic) {
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
        if let location = diagnostic.location, let line = sourceLine(location) {
            let number = String(location.line)
            let gutter = String(repeating: " ", count: number.count)
            let expanded = line.replacingOccurrences(of: "\t", with: " ")
            console.err(" \(number) | \(expanded)")
            console.err(" \(gutter) | \(String(repeating: " ", count: max(0, location.column - 1)))\(console.style("^", "1;32"))")
        }
        if let hint = diagnostic.hint {
            console.err("\(console.style("note:", "1;36")) \(hint)")
        }
    }

    private func sourceLine(_ location: SourceLocation) -> String? {
        guard let text = sources[location.file] else { return nil }
        var current = 1
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == location.line { return String(line.prefix(300)) }
            current += 1
        }
        return nil
    }
}
