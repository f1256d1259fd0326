/// What the parser and `--help` know of one option: its names, the placeholder of its value, its
/// help, whether it may be given more than once. Commands read options through the typed `Option`
/// that wraps it, never by its text.
struct OptionSpec: Sendable, Hashable {
    var names: [String]
    /// `nil` for a flag; otherwise the placeholder shown in help (`DIR`, `KEY=VALUE`).
    var valueName: String?
    var help: String
    var repeatable = false
    /// The name the usage line shows (default: the last, long name).
    var usageName: String?
    /// What its value is, for completion (default: what `valueName` implies, see `ValueKind.implied`).
    var declaredValues: ValueKind?

    var values: ValueKind { declaredValues ?? ValueKind.implied(by: valueName) }

    /// The key values are stored under: the long name without its dashes.
    var key: String { String(names.last!.drop { $0 == "-" }) }

    /// `[--name VALUE]` (with `...` when repeatable), as the usage line shows it without brackets.
    var usage: String {
        let name = usageName ?? names.last!
        return valueName.map { "\(name) \($0)" } ?? name
    }
}
