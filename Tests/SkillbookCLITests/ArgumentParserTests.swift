import SkillbookCore
import Foundation
@testable import SkillbookCLI
import Testing

private let spec = CommandSpec(
    name: "demo", summary: "A demo.", arguments: "NAME [FILE]",
    options: [
        Option.input.withHelp("An input.").spec, Option.inputsFile.withHelp("A file.").spec, Option.json.withHelp("JSON.").spec,
        Option.limit.spec,
    ],
    positionals: 1...2)

private func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    try ArgumentParser.parse(arguments, for: spec)
}

/// The message of the usage error `arguments` produce, or `nil`.
private func failure(_ arguments: [String]) -> String? {
    do {
        _ = try parse(arguments)
        return nil
    } catch {
        #expect(error.command == "demo")
        return error.message
    }
}

@Suite struct ArgumentParserTests {
    @Test func optionsFlagsAndPositionalsInAnyOrder() throws {
        let parsed = try parse(["--json", "first", "-i", "a=1", "--input", "b=2", "--input=c=3=4", "second", "--inputs=f.yaml"])
        #expect(parsed.positionals == ["first", "second"])
        #expect(parsed[.json])
        #expect(!parsed[.help])
        #expect(parsed[.input] == ["a=1", "b=2", "c=3=4"])
        #expect(parsed[.input].last == "c=3=4")
        #expect(parsed[.inputsFile] == "f.yaml")
        #expect(parsed[.playbooks] == nil)
        #expect(parsed[.skills] == [])
    }

    @Test func globalOptionsAreAcceptedByEveryCommand() throws {
        let parsed = try parse(["x", "--playbooks", "books", "--state=st", "--no-color"])
        #expect(parsed[.playbooks] == "books")
        #expect(parsed[.state] == "st")
        #expect(parsed[.noColor])
    }

    @Test func aValueMayStartWithADash() throws {
        let parsed = try parse(["x", "-i", "-5", "--inputs", "--json"])
        #expect(parsed[.input] == ["-5"])
        #expect(parsed[.inputsFile] == "--json")
        #expect(!parsed[.json])
    }

    @Test func doubleDashEndsOptionsAndASingleDashIsAPositional() throws {
        let parsed = try parse(["--", "--json", "-i"])
        #expect(parsed.positionals == ["--json", "-i"])
        #expect(!parsed[.json])
        #expect(try parse(["-"]).positionals == ["-"])
    }

    @Test func helpNeedsNoPositionals() throws {
        #expect(try parse(["--help"])[.help])
        #expect(try parse(["-h", "a", "b", "c"])[.help])
    }

    @Test func aShortOptionMayHaveItsValueAttached() throws {
        let parsed = try parse(["x", "-n1", "-ia=1", "-i", "b=2"])
        #expect(parsed[.limit] == "1")
        #expect(parsed[.input] == ["a=1", "b=2"])
        #expect(failure(["x", "-n1", "-n2"]) == "option '-n' is given more than once")
        #expect(failure(["x", "-hx"])?.hasPrefix("unknown option '-hx' for 'skillbook demo'") == true, "-h takes no value")
    }

    @Test func alternativesShowAsOneBracketInTheUsage() {
        let both = CommandSpec(
            name: "pick", summary: "Pick.", arguments: "",
            options: [Option.json.spec, Option.dryRun.spec, Option.yes.spec], alternatives: [[Option.json.spec, Option.yes.spec]])
        #expect(both.usage == "[--json|--yes] [--dry-run]")
        // An option listed with help of its own is still the group's (skills: `[--json] [--json|--markdown]`).
        let ownHelp = CommandSpec(
            name: "pick", summary: "Pick.", arguments: "",
            options: [Option.json.withHelp("Print it as JSON.").spec, Option.yes.spec], alternatives: [[Option.json.spec, Option.yes.spec]])
        #expect(ownHelp.usage == "[--json|--yes]")
        // A group of which one must be given has no brackets.
        var required = ownHelp
        required.alternativesRequired = true
        #expect(required.usage == "--json|--yes")
    }

    @Test func mistakesAreUsageErrors() {
        #expect(failure(["x", "--jsn"]) == "unknown option '--jsn' for 'skillbook demo'; did you mean '--json'?")
        #expect(failure(["x", "--frobnicate"]) == "unknown option '--frobnicate' for 'skillbook demo'")
        #expect(failure(["x", "-x"]) == "unknown option '-x' for 'skillbook demo'; did you mean '-i'?")
        #expect(failure(["x", "--json=yes"]) == "option '--json' takes no value")
        #expect(failure(["x", "--inputs"]) == "option '--inputs' needs a value (FILE)")
        #expect(failure(["x", "-i"]) == "option '-i' needs a value (KEY=VALUE)")
        #expect(failure(["x", "--inputs", "a", "--inputs=b"]) == "option '--inputs' is given more than once")
        #expect(failure(["x", "--state", "a", "--state", "b"]) == "option '--state' is given more than once")
        #expect(failure([]) == "'skillbook demo' needs NAME")
        #expect(failure(["a", "b", "c"]) == "unexpected argument 'c' for 'skillbook demo'")
    }

    @Test func helpTextComesFromTheSameDeclaration() {
        let text = spec.helpText
        #expect(
            text.hasPrefix("""
                A demo.

                Usage: skillbook demo NAME [FILE] [-i KEY=VALUE]... [--inputs FILE] [--json] [--limit N]

                Options:
                  -i, --input KEY=VALUE  An input. Repeatable.
                  --inputs FILE          A file.
                  --json                 JSON.
                  -n, --limit N          Show at most N runs (default 20).
                  --playbooks DIR        Where playbooks are found by name (default: ./Playbooks).

                """))
        // Every global option follows, in the same column.
        for option in CommandSpec.globalOptions {
            let names = option.names.joined(separator: ", ") + (option.valueName.map { " \($0)" } ?? "")
            let padded = names.padding(toLength: 21, withPad: " ", startingAt: 0)
            #expect(text.contains("\n  \(padded)  \(option.help)"), "\(names)")
        }
        #expect(text.hasSuffix("  -h, --help             Show this help.\n"))
    }

    @Test func anOptionLongerThanTheColumnWrapsItsHelp() {
        let long = OptionSpec(names: ["--a-very-long-option-name"], valueName: "SOMETHING", help: "Help.")
        let short = OptionSpec(names: ["-s"], help: "Short.")
        // The help column is at most 28 wide (plus the indent and the gap): help text starts in column 33.
        let column = String(repeating: " ", count: 32)
        #expect(
            CommandSpec.render(options: [short, long])
                == "  -s\(String(repeating: " ", count: 26))  Short.\n  --a-very-long-option-name SOMETHING\n\(column)Help.\n")
    }
}
