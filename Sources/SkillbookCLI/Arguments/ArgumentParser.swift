import SkillbookCore

/// A usage mistake on the command line: printed with a pointer to `--help`, exit code 2.
struct UsageError: Error, Sendable, CustomStringConvertible {
    var message: String
    var command: String?

    var description: String { message }
}

/// Parses `--name value`, `--name=value`, `-n value`, `-nVALUE`, flags, `--` and positionals
/// against a command's declaration.
enum ArgumentParser {
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        let options = spec.allOptions
        var parsed = ParsedArguments(declared: options)
        var index = 0
        var onlyPositionals = false
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: spec.name) }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else if !argument.hasPrefix("--"), argument.count > 2,
                options.contains(where: { $0.valueName != nil && $0.names.contains(String(argument.prefix(2))) })
            {
                // A short option with its value attached: -n5, -ikey=value.
                name = String(argument.prefix(2))
                inlineValue = String(argument.dropFirst(2))
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                let names = options.flatMap(\.names)
                let suggestion = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw fail("unknown option '\(name)' for 'skillbook \(spec.name)'\(suggestion)")
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw fail("option '\(name)' takes no value") }
                parsed.add(option, value: nil)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw fail("option '\(name)' needs a value (\(valueName))")
            }
            // An empty folder or file name would quietly mean the default (or the current folder).
            if value.isEmpty, valueName.hasPrefix("DIR") || valueName == "FILE" {
                throw fail("option '\(name)' needs a \(valueName.hasPrefix("DIR") ? "folder" : "file"); got an empty value")
            }
            parsed.add(option, value: value)
            if !option.repeatable, parsed.count(option) > 1 { throw fail("option '\(name)' is given more than once") }
        }
        if parsed[.help] { return parsed }
        let count = parsed.positionals.count
        if count < spec.positionals.lowerBound {
            throw fail("'skillbook \(spec.name)' needs \(spec.arguments.split(separator: " ").first ?? "an argument")")
        }
        if count > spec.positionals.upperBound {
            throw fail("unexpected argument '\(parsed.positionals[spec.positionals.upperBound])' for 'skillbook \(spec.name)'")
        }
        return parsed
    }
}
