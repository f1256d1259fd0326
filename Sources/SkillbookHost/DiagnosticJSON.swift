public import SkillbookCore

/// The JSON form of diagnostics (`skillbook validate --json`, the load and input errors of
/// `skillbook run --json`): one object per diagnostic, then a summary.
///
/// A diagnostic is `{"type": "diagnostic", "file", "line", "column", "severity", "message", "fix"}`
/// (`file`, `line`, `column` are `null` for a problem with no place in a file, such as a `-i` value,
/// which has `path` instead; `fix` is `null` when there is none). The summary is
/// `{"type": "summary", "files", "failed", "errors", "warnings"}`.
public enum DiagnosticJSON {
    public static func object(_ diagnostic: Diagnostic) -> ValueObject {
        var object = ValueObject()
        object["type"] = "diagnostic"
        object["file"] = diagnostic.location.map { .string($0.file) } ?? .null
        object["line"] = diagnostic.location.map { .int($0.line) } ?? .null
        object["column"] = diagnostic.location.map { .int($0.column) } ?? .null
        if let path = diagnostic.path { object["path"] = .string(path) }
        object["severity"] = .string(diagnostic.severity.rawValue)
        object["message"] = .string(diagnostic.message)
        object["fix"] = diagnostic.hint.map { .string($0) } ?? .null
        return object
    }

    /// How many files were checked, how many had errors, and the diagnostics' counts by severity.
    public static func summary(files: Int, failed: Int, diagnostics: [Diagnostic]) -> ValueObject {
        var object = ValueObject()
        object["type"] = "summary"
        object["files"] = .int(files)
        object["failed"] = .int(failed)
        object["errors"] = .int(diagnostics.filter { $0.severity == .error }.count)
        object["warnings"] = .int(diagnostics.filter { $0.severity == .warning }.count)
        return object
    }

    /// Each diagnostic's line, then the summary's, as JSON lines (each ending in a newline).
    public static func lines(_ diagnostics: [Diagnostic], files: Int, failed: Int) -> String {
        (diagnostics.map(object) + [summary(files: files, failed: failed, diagnostics: diagnostics)])
            .map { JSONText.encode(.object($0)) + "\n" }.joined()
    }
}
