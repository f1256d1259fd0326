/// One finding about user input: a playbook, a manifest, a parameter value.
///
/// Printed compiler-style as `file:line:column: error: message`; a diagnostic without a
/// location (a command-line value, say) prints its `path` instead.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case error, warning, note
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation?
    /// Where in a value the problem is, such as `steps[2].with.count`.
    public var path: String?
    /// A suggested fix, printed as a `note:` line.
    public var hint: String?

    public init(
        _ severity: Severity,
        _ message: String,
        at location: SourceLocation? = nil,
        path: String? = nil,
        hint: String? = nil
    ) {
        self.severity = severity
        self.message = message
        self.location = location
        self.path = path
        self.hint = hint
    }

    public static func error(
        _ message: String, at location: SourceLocation? = nil, path: String? = nil, hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, message, at: location, path: path, hint: hint)
    }

    public static func warning(
        _ message: String, at location: SourceLocation? = nil, path: String? = nil, hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, message, at: location, path: path, hint: hint)
    }

    /// `file:line:column: error: message`, or `path: error: message` without a location.
    public var description: String {
        var prefix = ""
        if let location {
            prefix = "\(location): "
        } else if let path {
            prefix = "\(path): "
        }
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}

/// A set of diagnostics thrown as one error, so a caller gets every problem at once.
public struct DiagnosticError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

extension [Diagnostic] {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by file, line and column; diagnostics without a location keep their order last.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case let (l?, r?): return l == r ? lhs.offset < rhs.offset : l < r
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}
