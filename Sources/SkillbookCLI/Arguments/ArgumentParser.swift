import SkillbookCore

/// A usage mistake on the command line: printed with a pointer to `--help`, exit code 2.
struct UsageError: Error, Sendable, CustomStringConvertible {
    var message: String
    var command: String?

    var description: String { message }
}

/// Parsed arguments of one command.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []

    func flag(_ key: String) -> Bool { flags.contains(key) }
    func value(_ key: String) -> String? { values[key]?.last }
    func all(_ key: String) -> [String] { values[key] ?? [] }

    mutating func add(_ option: OptionSpec, value: String?) {
        if let value {
            values[option.key, default: []].append(value)
        } else {
            flags.insert(option.key)
        }
    }
}

/// Parses `--name value`, `--name=value`, `-i value`, flags, `--` and positionals against a spec.
enum ArgumentParser {
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        let options = spec.allOptions
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
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                let names = options.flatMap(\.names)
                let suggestion = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "unknown option '\(name)' for 'skillbook \(spec.name)'\(suggestion)", command: spec.name)
            }
            guard option.valueName != nil else {
                if inlineValue != nil {
                    throw UsageError(message: "option '\(name)' takes no value", command: spec.name)
                }
                parsed.add(option, value: nil)
                continue
            }
            if let inlineValue {
                parsed.add(option, value: inlineValue)
            } else if index < arguments.count {
                parsed.add(option, value: arguments[index])
                index += 1
            } else {
                throw UsageError(message: "option '\(name)' needs a value (\(option.valueName!))", command: spec.name)
            }
            if !option.repeatable, parsed.all(option.key).count > 1 {
                throw UsageError(message: "option '\(name)' is given more than once", command: spec.name)
            }
        }
        if parsed.flag("help") { return parsed }
        let count = parsed.positionals.count
        if count < spec.positionals.lowerBound {
            throw UsageError(message: "'skillbook \(spec.name)' needs \(spec.usage.split(separator: " ").first ?? "an argument")", command: spec.name)
        }
        if count > spec.positionals.upperBound {
            let extra = parsed.positionals[spec.positionals.upperBound]
            throw UsageError(message: "unexpected argument '\(extra)' for 'skillbook \(spec.name)'", command: spec.name)
        }
        return parsed
    }
}
