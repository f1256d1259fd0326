/// A typed option key. Each option is declared once, below, and read by its key:
/// `arguments[.state]` is a `String?`, `arguments[.allowPath]` a `[String]`, `arguments[.json]`
/// a `Bool`; a misspelt key does not compile.
///
/// `Value` is `Bool` for a flag, `String` for an option given at most once, `[String]` for a
/// repeatable one.
struct Option<Value>: Sendable {
    let spec: OptionSpec

    /// The same option with other help text (for a command where it means something narrower).
    func withHelp(_ text: String) -> Option {
        var spec = spec
        spec.help = text
        return Option(spec: spec)
    }

    /// The same option with the kind of value it takes (what completion offers).
    func values(_ kind: ValueKind) -> Option {
        var spec = spec
        spec.declaredValues = kind
        return Option(spec: spec)
    }
}

extension Option where Value == Bool {
    init(_ names: String..., help: String) {
        spec = OptionSpec(names: names, help: help)
    }
}

extension Option where Value == String {
    init(_ names: String..., value: String, help: String) {
        spec = OptionSpec(names: names, valueName: value, help: help)
    }
}

extension Option where Value == [String] {
    init(_ names: String..., value: String, help: String, usageName: String? = nil) {
        spec = OptionSpec(names: names, valueName: value, help: help, repeatable: true, usageName: usageName)
    }
}

// MARK: Workspace (every command)

extension Option where Value == String {
    static var playbooks: Self { Self("--playbooks", value: "DIR", help: "Where playbooks are found by name (default: ./Playbooks).") }
    static var state: Self {
        Self(
            "--state", value: "DIR|URL",
            help: "State directory, or postgresql://USER@HOST:PORT/DB for a state shared by machines (default: $SKILLBOOK_STATE, "
                + "else $SKILLBOOK_HOME, else $XDG_STATE_HOME/skillbook, else ~/.local/state/skillbook).")
    }
}

extension Option where Value == [String] {
    static var allowPath: Self {
        Self(
            "--allow-path", value: "DIR",
            help: "Also let file skills read and change files in DIR (default: only the current directory and the state directory).")
    }
    static var skills: Self {
        Self("--skills", value: "DIR", help: "Also load manifest skills (*.yaml) from DIR; ./Skills is loaded when present.")
    }
}

extension Option where Value == Bool {
    static var noColor: Self { Self("--no-color", help: "Never colour the output (NO_COLOR is respected too).") }
    static var help: Self { Self("-h", "--help", help: "Show this help.") }
}

// MARK: Inputs, confirmation, output

extension Option where Value == [String] {
    static var input: Self {
        Self(
            "-i", "--input", value: "KEY=VALUE", help: "Set an input; the text is coerced to the input's type ([a, b] for lists).",
            usageName: "-i"
        ).values(.input)
    }
}

extension Option where Value == String {
    static var inputsFile: Self { Self("--inputs", value: "FILE", help: "Read inputs from a YAML or JSON mapping.") }
}

extension Option where Value == Bool {
    static var yes: Self { Self("-y", "--yes", help: "Approve every confirmation (steps whose skill has confirm).") }
    static var json: Self { Self("--json", help: "Print one JSON object per event on stdout; the last is run.finished.") }
}

/// Options declared together and taken together by every command that takes one of them.
enum OptionGroup {
    /// Where things are: every command takes these (with `--help`).
    static let workspace: [OptionSpec] = [
        Option.playbooks.spec, Option.state.spec, Option.allowPath.spec, Option.skills.spec, Option.noColor.spec,
        Option.help.spec,
    ]
    /// The inputs of a run: `-i KEY=VALUE`… and `--inputs FILE`.
    static let inputs: [OptionSpec] = [Option.input.spec, Option.inputsFile.spec]
    /// Who approves confirmations.
    static let confirmation: [OptionSpec] = [Option.yes.spec]
    /// Run events as JSON lines.
    static let eventOutput: [OptionSpec] = [Option.json.spec]
}
