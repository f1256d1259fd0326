/// A command's declaration: its name, what it does, its options and positionals. Parsing, the
/// usage line and `--help` all come from it.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    /// The positionals as the usage line shows them, e.g. `NAME|FILE` or `[PATH...]`.
    var arguments: String
    /// The command's own options and the groups it takes, in the order help lists them (the
    /// workspace options every command takes follow).
    var options: [OptionSpec]
    /// Options of which at most one makes sense; the usage line shows them as `[--a|--b]`.
    var alternatives: [[OptionSpec]] = []
    /// One option of each group of `alternatives` must be given: the usage line shows them
    /// without brackets, `--a|--b`.
    var alternativesRequired = false
    /// How many positionals are accepted.
    var positionals: ClosedRange<Int> = 0...0
    var discussion: String = ""
    var examples: [String] = []
    /// What the positionals are, for completion.
    var operands: ValueKind = .text

    /// Options every command accepts.
    static let globalOptions: [OptionSpec] = OptionGroup.workspace

    var allOptions: [OptionSpec] { options + Self.globalOptions }

    /// Usage after `skillbook NAME`: the positionals, then each option in brackets.
    var usage: String {
        var parts = arguments.isEmpty ? [] : [arguments]
        var shown: Set<String> = []
        for option in options where !shown.contains(option.key) {
            // (by key: an option may be listed with help of its own, `Option.json.withHelp(…)`)
            if let group = alternatives.first(where: { $0.contains { $0.key == option.key } }) {
                let choice = group.map(\.usage).joined(separator: "|")
                parts.append(alternativesRequired ? choice : "[\(choice)]")
                shown.formUnion(group.map(\.key))
            } else {
                parts.append("[\(option.usage)]" + (option.repeatable ? "..." : ""))
                shown.insert(option.key)
            }
        }
        return parts.joined(separator: " ")
    }

    var helpText: String {
        var text = "\(summary)\n\nUsage: skillbook \(name)\(usage.isEmpty ? "" : " \(usage)")\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOptions:\n" + Self.render(options: allOptions)
        if !examples.isEmpty {
            text += "\nExamples:\n" + examples.map { "  \($0)\n" }.joined()
        }
        return text
    }

    static func render(options: [OptionSpec]) -> String {
        let rows = options.map { option -> (String, String) in
            var left = option.names.joined(separator: ", ")
            if let valueName = option.valueName { left += " \(valueName)" }
            return (left, option.help + (option.repeatable ? " Repeatable." : ""))
        }
        let width = min(28, rows.map(\.0.count).max() ?? 0)
        return rows.map { left, right in
            let pad = left.count <= width ? String(repeating: " ", count: width - left.count) : "\n" + String(repeating: " ", count: width + 2)
            return "  \(left)\(pad)  \(right)\n"
        }.joined()
    }
}
