public import SkillbookCore

/// A manifest's `run` or `undo` list: a command written out, then arguments that may refer to
/// the call's parameters (and, in `undo`, to its output).
///
/// Each element becomes arguments by itself — nothing is ever joined into a command line or
/// given to a shell, so a value's quotes, `;`, `$( )` or spaces stay inside its argument:
/// - text without `${{ … }}` is one argument as written;
/// - an element that is exactly `${{ params.NAME }}` is the value: a list splices as one
///   argument per item, text and numbers are one argument, and an absent (or null) value leaves
///   the element out;
/// - text around references (`--name=${{ params.name }}`) is one argument with each value
///   interpolated as text; when a referenced value is absent, the whole element is left out.
public struct CommandTemplate: Sendable, Hashable {
    /// What a `${{ … }}` may name.
    public enum Reference: Sendable, Hashable, CustomStringConvertible {
        /// `params.NAME`
        case parameter(String)
        /// `output.FIELD` (only in `undo`)
        case output(String)

        public var description: String {
            switch self {
            case .parameter(let name): "params.\(name)"
            case .output(let field): "output.\(field)"
            }
        }
    }

    public enum Piece: Sendable, Hashable {
        case text(String)
        case reference(Reference)
    }

    public enum Argument: Sendable, Hashable {
        case literal(String)
        /// Exactly one `${{ … }}`.
        case whole(Reference)
        /// Text with references inside.
        case interpolated([Piece])
    }

    /// The command, `run[0]`: a name looked up on `PATH`, or a path.
    public var command: String
    /// Everything after the command.
    public var arguments: [Argument]
    /// Where the list is in the manifest.
    public var location: SourceLocation

    public init(command: String, arguments: [Argument], location: SourceLocation) {
        self.command = command
        self.arguments = arguments
        self.location = location
    }

    /// Every reference, in order.
    public var references: [Reference] {
        arguments.flatMap { argument -> [Reference] in
            switch argument {
            case .literal: []
            case .whole(let reference): [reference]
            case .interpolated(let pieces):
                pieces.compactMap { if case .reference(let reference) = $0 { reference } else { nil } }
            }
        }
    }

    /// Every reference once, in order of first use. A command has a handful, so a linear search:
    /// a `Set<Reference>` made the runtime scan the binary's conformance records for `Hashable`
    /// at each process's first manifest.
    public var uniqueReferences: [Reference] {
        var unique: [Reference] = []
        for reference in references where !unique.contains(reference) { unique.append(reference) }
        return unique
    }

    /// The argv for a call: `command` (or `executable` in its place) and the expanded arguments.
    public func argv(executable: String? = nil, parameters: ValueObject, output: Value? = nil) -> [String] {
        var argv = [executable ?? command]
        func value(of reference: Reference) -> Value? {
            let found: Value? =
                switch reference {
                case .parameter(let name): parameters[name]
                case .output(let field): output?[field]
                }
            return found == .null ? nil : found
        }
        for argument in arguments {
            switch argument {
            case .literal(let text):
                argv.append(text)
            case .whole(let reference):
                switch value(of: reference) {
                case nil: break
                case .array(let items)?: argv += items.filter { $0 != .null }.map(Self.text)
                case let single?: argv.append(Self.text(single))
                }
            case .interpolated(let pieces):
                var text = ""
                var complete = true
                for piece in pieces {
                    switch piece {
                    case .text(let part): text += part
                    case .reference(let reference):
                        guard let found = value(of: reference) else {
                            complete = false
                            break
                        }
                        text += Self.text(found)
                    }
                }
                if complete { argv.append(text) }
            }
        }
        return argv
    }

    /// One value as one argument: text as is, numbers and booleans as written, lists and objects
    /// as JSON.
    static func text(_ value: Value) -> String {
        value.interpolatedText
    }
}
