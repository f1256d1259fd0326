import Foundation

/// One word a shell may put at the cursor, with what it is (zsh and fish show it).
struct Candidate: Sendable, Equatable {
    var word: String
    var description: String = ""
}

/// What `skillbook __complete WORD…` answers: candidates, and what the shell adds itself.
struct CompletionAnswer: Sendable, Equatable {
    var candidates: [Candidate] = []
    /// The word is not finished after a candidate (`name=` of `-i name=`): no space after it.
    var noSpace = false
    /// The shell should offer files (`files`) or folders (`directories`) too.
    var files = false
    var directories = false

    /// Candidates one a line (`word<TAB>description`), then `:N`, N the bits 1 no space, 2 files,
    /// 4 folders: the protocol between the scripts `skillbook completion` prints and the binary.
    var text: String {
        let flags = (noSpace ? 1 : 0) | (files ? 2 : 0) | (directories ? 4 : 0)
        return candidates.map { $0.description.isEmpty ? "\($0.word)\n" : "\($0.word)\t\($0.description)\n" }.joined() + ":\(flags)\n"
    }
}

/// Completes a command line from the command declarations: command and subcommand names, option
/// names, option values and positionals by their `ValueKind`. Words that only the workspace knows
/// (playbooks, skills, runs, inputs) come from `lookup`.
struct Completer {
    var commands: [CommandSpec]
    /// The candidates of a workspace kind (`.playbook`, `.skill`, `.run`, `.input`) for a command
    /// line parsed as far as it goes.
    var lookup: (ValueKind, CommandSpec, ParsedArguments) async -> [Candidate]

    /// `words` are the command line's words after `skillbook`, the last the one being completed
    /// (empty after a space).
    func complete(_ words: [String]) async -> CompletionAnswer {
        let current = words.last ?? ""
        let before = Array(words.dropLast())
        let visible = commands
        guard let first = before.first else {
            var names: [Candidate] = []
            for spec in visible {
                let word = String(spec.name.split(separator: " ")[0])
                if !names.contains(where: { $0.word == word }) {
                    names.append(Candidate(word: word, description: spec.name == word ? Self.trimmed(spec.summary) : ""))
                }
            }
            if current.hasPrefix("-") {
                names = [Candidate(word: "--help", description: "Show the help."), Candidate(word: "--version", description: "Print the version.")]
            }
            return CompletionAnswer(candidates: Self.matching(names, current))
        }
        let spec: CommandSpec
        let rest: ArraySlice<String>
        if before.count > 1, let two = visible.first(where: { $0.name == "\(first) \(before[1])" }) {
            spec = two
            rest = before.dropFirst(2)
        } else if let one = visible.first(where: { $0.name == first }) {
            spec = one
            rest = before.dropFirst()
        } else {
            return CompletionAnswer()
        }
        // The words typed so far, parsed as far as they go (no error is an error here).
        var parsed = ParsedArguments(declared: spec.allOptions)
        var pending: OptionSpec?
        var onlyPositionals = false
        for word in rest {
            if let option = pending {
                parsed.add(option, value: word)
                pending = nil
            } else if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                parsed.positionals.append(word)
            } else if word == "--" {
                onlyPositionals = true
            } else if let option = spec.allOptions.first(where: { $0.names.contains(word) }) {
                if option.valueName == nil { parsed.add(option, value: nil) } else { pending = option }
            }
        }
        if let option = pending {
            return await answer(option.values, current, spec, parsed)
        }
        if current.hasPrefix("-") && !onlyPositionals {
            let options = spec.allOptions.flatMap { option in
                option.names.map { Candidate(word: $0, description: Self.trimmed(option.help)) }
            }
            return CompletionAnswer(candidates: Self.matching(options, current))
        }
        var result = CompletionAnswer()
        if rest.isEmpty, !spec.name.contains(" ") {
            let subcommands = visible.filter { $0.name.hasPrefix(spec.name + " ") }.map {
                Candidate(word: String($0.name.dropFirst(spec.name.count + 1)), description: Self.trimmed($0.summary))
            }
            result.candidates = Self.matching(subcommands, current)
        }
        if parsed.positionals.count < spec.positionals.upperBound {
            let operands = await self.answer(spec.operands, current, spec, parsed)
            result.candidates += operands.candidates
            result.files = operands.files
            result.directories = operands.directories
            result.noSpace = operands.noSpace
        }
        return result
    }

    private func answer(_ kind: ValueKind, _ current: String, _ spec: CommandSpec, _ parsed: ParsedArguments) async -> CompletionAnswer {
        switch kind {
        case .text:
            return CompletionAnswer()
        case .choices(let words):
            return CompletionAnswer(candidates: Self.matching(words.map { Candidate(word: $0) }, current))
        case .file:
            return CompletionAnswer(files: true)
        case .directory:
            return CompletionAnswer(directories: true)
        case .playbook:
            // A path is completed as one: `run ./my.yaml`, `run Playbooks/x.yaml`.
            if current.contains("/") || current.hasPrefix(".") { return CompletionAnswer(files: true) }
            return CompletionAnswer(candidates: Self.matching(await lookup(.playbook, spec, parsed), current))
        case .input:
            // `name=` first; after the `=` the value is the user's.
            if current.contains("=") { return CompletionAnswer() }
            return CompletionAnswer(candidates: Self.matching(await lookup(.input, spec, parsed), current), noSpace: true)
        case .skill, .run:
            return CompletionAnswer(candidates: Self.matching(await lookup(kind, spec, parsed), current))
        }
    }

    static func matching(_ candidates: [Candidate], _ prefix: String) -> [Candidate] {
        candidates.filter { $0.word.hasPrefix(prefix) }
    }

    /// Help text as a one-line description: its first sentence, without the full stop.
    static func trimmed(_ help: String) -> String {
        var text = help
        if let end = text.range(of: ". ") { text = String(text[..<end.lowerBound]) }
        while text.hasSuffix(".") { text.removeLast() }
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}
