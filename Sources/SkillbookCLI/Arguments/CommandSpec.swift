/// A command-line option, declared once: parsing and `--help` both come from it.
struct OptionSpec: Sendable {
    var names: [String]
    /// `nil` for a flag; otherwise the placeholder shown in help (`DIR`, `KEY=VALUE`).
    var valueName: String?
    var help: String
    var repeatable = false

    var key: String { String(names.last!.drop { $0 == "-" }) }
}

/// A command's declaration: its name, what it does, its options and positionals.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    /// Usage after `skillbook NAME`, e.g. `NAME|FILE [options]`.
    var usage: String
    var options: [OptionSpec]
    /// How many positionals are accepted.
    var positionals: ClosedRange<Int> = 0...0
    var discussion: String = ""
    var examples: [String] = []

    /// Options every command accepts.
    static let globalOptions: [OptionSpec] = [
        OptionSpec(names: ["--playbooks"], valueName: "DIR", help: "Where playbooks are found by name (default: ./Playbooks)."),
        OptionSpec(
            names: ["--state"], valueName: "DIR",
            help: "State directory (default: $SKILLBOOK_HOME, else $XDG_STATE_HOME/skillbook, else ~/.local/state/skillbook)."),
        OptionSpec(
            names: ["--allow-path"], valueName: "DIR",
            help: "Also let file skills read and change files in DIR (default: only the current directory and the state directory).",
            repeatable: true),
        OptionSpec(
            names: ["--skills"], valueName: "DIR",
            help: "Also load manifest skills (*.yaml) from DIR; ./Skills is loaded when present.", repeatable: true),
        OptionSpec(names: ["--no-color"], help: "Never colour the output (NO_COLOR is respected too)."),
        OptionSpec(names: ["-h", "--help"], help: "Show this help."),
    ]

    var allOptions: [OptionSpec] { options + Self.globalOptions }

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
