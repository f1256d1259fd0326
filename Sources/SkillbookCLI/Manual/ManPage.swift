import Foundation

/// One man page in mdoc(7), as `mandoc` and `man` read it.
struct ManPage: Sendable {
    var name: String
    var section: Int
    var text: String

    var fileName: String { "\(name).\(section)" }

    /// The date every page carries: the version's, so that the pages of one version are the same bytes.
    static let date = "December 2, 2026"

    /// `skillbook(1)`, one page per visible command, and `skillbook-playbook(5)`.
    static func all(_ commands: [CommandSpec]) -> [ManPage] {
        [overview(commands)] + commands.map { command($0, all: commands) } + [PlaybookManual.page]
    }

    /// `skillbook-runs-show` for `runs show`.
    static func pageName(_ command: CommandSpec) -> String {
        "skillbook-" + command.name.replacingOccurrences(of: " ", with: "-")
    }

    /// Descriptions for the commands whose declaration has no discussion of its own.
    static let descriptions: [String: String] = [
        "list": """
            Lists every playbook file (*.yaml, *.yml) of the playbooks folder with its number of steps and
            its description. A playbook that does not validate is listed with its number of errors; 'skillbook
            validate' shows them.
            """,
        "show": """
            Prints a playbook's description, its inputs with their types and defaults, its steps with the
            skill each calls, and its outputs, without running anything. NAME is looked up as
            Playbooks/NAME.yaml (see --playbooks); a path to a .yaml file works too.
            """,
    ]

    static func command(_ spec: CommandSpec, all commands: [CommandSpec]) -> ManPage {
        let name = pageName(spec)
        var lines = header(name, section: 1, description: spec.summary)
        lines += [".Sh SYNOPSIS", ".Nm skillbook", ".Cm \(spec.name)"] + synopsis(spec)
        lines += [".Sh DESCRIPTION"] + text(spec.discussion.isEmpty ? descriptions[spec.name] ?? spec.summary : spec.discussion)
        lines += [".Pp", "The options are as follows:"] + optionList(spec.allOptions)
        lines += [".Sh EXIT STATUS", "See", ".Xr skillbook 1 ."]
        if !spec.examples.isEmpty {
            lines += [".Sh EXAMPLES", ".Bd -literal -offset indent"] + spec.examples.map(escaped) + [".Ed"]
        }
        let related = commands.filter { $0.name != spec.name && ($0.name.hasPrefix(spec.name + " ") || spec.name.hasPrefix($0.name + " ")) }
        lines += [".Sh SEE ALSO"] + seeAlso((["skillbook"] + related.map(pageName)).map { ($0, 1) })
        return ManPage(name: name, section: 1, text: lines.joined(separator: "\n") + "\n")
    }

    static func overview(_ commands: [CommandSpec]) -> ManPage {
        var lines = header("skillbook", section: 1, description: "a declarative playbook runner")
        lines += [".Sh SYNOPSIS", ".Nm", ".Ar command", ".Op Ar options", ".Nm", ".Fl -version"]
        lines += [".Sh DESCRIPTION"]
        lines += text("""
            Skills are typed capabilities (create a note, move files, fetch a web page, run a command) that declare a
            parameter schema. Playbooks are YAML files in Playbooks/ that chain skills; each step's parameters are
            mapped from the playbook's inputs and earlier steps' outputs. Every mapping is checked against the target
            skill's schema before anything runs, oversized lists are split into batches the skill accepts, and when a
            step fails the completed steps are undone in reverse order. Every run is journaled, so an interrupted run
            can be resumed or undone. The playbook format is described in
            """) + [".Xr skillbook-playbook 5 ."]
        lines += [".Ss Commands", ".Bl -tag -width Ds"]
        for command in commands {
            lines += [".It Cm \(command.name)"] + text(command.summary) + ["See", ".Xr \(pageName(command)) 1 ."]
        }
        lines += [".El", ".Ss Options for every command"]
        lines += optionList(CommandSpec.globalOptions + [OptionSpec(names: ["--version"], help: "Print the version.")])
        lines += [".Sh ENVIRONMENT", ".Bl -tag -width Ds"]
        for (variable, meaning) in environment {
            lines += [".It Ev \(variable)"] + text(meaning)
        }
        lines += [".El", ".Sh FILES", ".Bl -tag -width Ds"]
        for (file, meaning) in files {
            lines += [".It Pa \(file)"] + text(meaning)
        }
        lines += [".El", ".Sh EXIT STATUS", ".Bl -tag -width Ds"]
        for code in ExitCode.allCases {
            lines += [".It \(code.rawValue)"] + text(Self.exitMeanings[code] ?? code.summary)
        }
        lines += [".El", ".Sh EXAMPLES", ".Bd -literal -offset indent"]
        lines += ["skillbook run hello-notes -i name=Ada", "skillbook validate", "skillbook runs"] + [".Ed"]
        lines += [".Sh SEE ALSO"] + seeAlso(commands.map { (pageName($0), 1) } + [("skillbook-playbook", 5)])
        return ManPage(name: "skillbook", section: 1, text: lines.joined(separator: "\n") + "\n")
    }

    static let environment: [(String, String)] = [
        ("SKILLBOOK_STATE", "The state directory, or a postgresql:// URL for a state shared by machines (like --state)."),
        ("SKILLBOOK_HOME", "The state directory when SKILLBOOK_STATE is not set."),
        ("XDG_STATE_HOME", "Else the state directory is $XDG_STATE_HOME/skillbook, else ~/.local/state/skillbook."),
        ("SKILLBOOK_MODEL_URL", "The OpenAI-compatible chat-completions server that ask and chat plan with."),
        ("SKILLBOOK_MODEL", "The model name sent to it."),
        ("SKILLBOOK_API_KEY", "Sent to it as a bearer token, never printed."),
        ("TZ", "The time zone of relative dates and of the current day."),
        ("NO_COLOR", "When set, no colour (colour is only used on a terminal)."),
    ]

    static let files: [(String, String)] = [
        ("Playbooks/", "The playbooks of the workspace, found by name."),
        ("Skills/", "Manifest skills (*.yaml) of the workspace, loaded when present."),
        ("skillbook.yaml", "The workspace's defaults: state, allow_paths, timezone, model."),
        ("~/.local/state/skillbook/skillbook.sqlite", "The default state: the run journal, notes, reminders and the fire ledger."),
    ]

    static let exitMeanings: [ExitCode: String] = [
        .success: "Success.",
        .failure: "The run failed (and was rolled back), or something broke while working.",
        .usage: "A usage or validation error, or a refusal: nothing ran.",
        .rollbackIncomplete: "Something could not be undone (named in the output).",
        .waitingForApproval: "Waiting for an approval (reserved: no command returns it yet).",
        .interrupted: "Interrupted (Ctrl-C or SIGTERM); completed steps were rolled back.",
    ]

    static func header(_ name: String, section: Int, description: String) -> [String] {
        var description = description
        while description.hasSuffix(".") { description.removeLast() }
        if let first = description.first, first.isUppercase, description.dropFirst().first?.isLowercase ?? false {
            description = first.lowercased() + description.dropFirst()
        }
        return [
            ".Dd \(date)", ".Dt \(name.uppercased()) \(section)", ".Os", ".Sh NAME", ".Nm \(name)", ".Nd \(escaped(description))",
        ]
    }

    /// The positionals, then every option in brackets, as the usage line gives them.
    static func synopsis(_ spec: CommandSpec) -> [String] {
        var lines: [String] = []
        for token in spec.arguments.split(separator: " ").map(String.init) {
            var word = token.replacingOccurrences(of: "\"", with: "")
            let optional = word.hasPrefix("[")
            word = word.trimmingCharacters(in: ["[", "]"])
            let many = word.hasSuffix("...")
            if many { word.removeLast(3) }
            lines.append((optional ? ".Op Ar " : ".Ar ") + word + (many ? " ..." : ""))
        }
        for option in spec.options {
            let name = option.usageName ?? option.names.last!
            lines.append(".Op Fl \(flag(name))" + (option.valueName.map { " Ar \($0)" } ?? "") + (option.repeatable ? " ..." : ""))
        }
        return lines
    }

    /// `-i` → `i`, `--input` → `-input` (the argument of `.Fl`, which writes one dash itself).
    static func flag(_ name: String) -> String { String(name.dropFirst()) }

    /// A tagged list of options, each as `--help` shows it: names, placeholder, help.
    static func optionList(_ options: [OptionSpec]) -> [String] {
        var lines = [".Bl -tag -width Ds"]
        for option in options {
            let names = option.names.map { "Fl \(flag($0))" }.joined(separator: " , ")
            lines.append(".It \(names)" + (option.valueName.map { " Ar \($0)" } ?? ""))
            lines += text(option.help + (option.repeatable ? " Repeatable." : ""))
        }
        return lines + [".El"]
    }

    /// `.Xr` lines by section, then name, separated by commas.
    static func seeAlso(_ pages: [(name: String, section: Int)]) -> [String] {
        let sorted = pages.sorted { ($0.section, $0.name) < ($1.section, $1.name) }
        return sorted.enumerated().map { index, page in ".Xr \(page.name) \(page.section)" + (index < sorted.count - 1 ? " ," : "") }
    }

    /// Prose as mdoc text lines: paragraphs (blank lines) become `.Pp`, one sentence per line.
    static func text(_ prose: String) -> [String] {
        var lines: [String] = []
        for paragraph in prose.components(separatedBy: "\n\n") {
            let joined = paragraph.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            if joined.isEmpty { continue }
            if !lines.isEmpty { lines.append(".Pp") }
            lines += sentences(joined).flatMap(wrapped).map(escaped)
        }
        return lines
    }

    /// Splits after `. ` (or `? `, `! `) when a capital, a digit or a quote follows.
    static func sentences(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            if ".?!".contains(character), index + 2 < characters.count, characters[index + 1] == " ",
                characters[index + 2].isUppercase || characters[index + 2].isNumber || characters[index + 2] == "'"
            {
                result.append(current)
                current = ""
                index += 2
                continue
            }
            index += 1
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// A sentence as lines of at most 80 bytes, broken at spaces (roff fills them again).
    static func wrapped(_ sentence: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in sentence.split(separator: " ") {
            if !line.isEmpty, escaped(line + " " + word).utf8.count > 78 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A text line as roff reads it literally: backslashes as `\e`, a leading `.` or `'` guarded,
    /// anything beyond ASCII as `\[uXXXX]` (as mandoc reads it, and measures lines).
    static func escaped(_ line: String) -> String {
        var line = line.replacingOccurrences(of: "\\", with: "\\e")
        line = line.unicodeScalars.map { scalar in
            scalar.isASCII ? String(scalar) : "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
        }.joined()
        if line.hasPrefix(".") || line.hasPrefix("'") { line = "\\&" + line }
        return line
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
