import SkillbookCore
import Foundation
@testable import SkillbookCLI
import Testing

private let spec = CommandSpec(
    name: "demo", summary: "A demo.", usage: "NAME [FILE]",
    options: [
        OptionSpec(names: ["-i", "--input"], valueName: "KEY=VALUE", help: "An input.", repeatable: true),
        OptionSpec(names: ["--inputs"], valueName: "FILE", help: "A file."),
        OptionSpec(names: ["--json"], help: "JSON."),
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
        #expect(parsed.flag("json"))
        #expect(!parsed.flag("help"))
        #expect(parsed.all("input") == ["a=1", "b=2", "c=3=4"])
        #expect(parsed.value("input") == "c=3=4")
        #expect(parsed.value("inputs") == "f.yaml")
        #expect(parsed.value("playbooks") == nil)
        #expect(parsed.all("playbooks") == [])
    }

    @Test func globalOptionsAreAcceptedByEveryCommand() throws {
        let parsed = try parse(["x", "--playbooks", "books", "--state=st", "--no-color"])
        #expect(parsed.value("playbooks") == "books")
        #expect(parsed.value("state") == "st")
        #expect(parsed.flag("no-color"))
    }

    @Test func aValueMayStartWithADash() throws {
        let parsed = try parse(["x", "-i", "-5", "--inputs", "--json"])
        #expect(parsed.all("input") == ["-5"])
        #expect(parsed.value("inputs") == "--json")
        #expect(!parsed.flag("json"))
    }

    @Test func doubleDashEndsOptionsAndASingleDashIsAPositional() throws {
        let parsed = try parse(["--", "--json", "-i"])
        #expect(parsed.positionals == ["--json", "-i"])
        #expect(!parsed.flag("json"))
        #expect(try parse(["-"]).positionals == ["-"])
    }

    @Test func helpNeedsNoPositionals() throws {
        #expect(try parse(["--help"]).flag("help"))
        #expect(try parse(["-h", "a", "b", "c"]).flag("help"))
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

                Usage: skillbook demo NAME [FILE]

                Options:
                  -i, --input KEY=VALUE  An input. Repeatable.
                  --inputs FILE          A file.
                  --json                 JSON.
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
