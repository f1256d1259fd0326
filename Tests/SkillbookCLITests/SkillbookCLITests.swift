import Foundation
@testable import SkillbookCLI
import Testing

/// Runs `skillbook ARGS` in-process exactly as given (no state or playbooks options added).
private func bare(_ arguments: [String]) async -> CLIRun {
    let directory = TemporaryDirectory()
    let captured = CapturedOutput()
    let code = await SkillbookCLI.run(arguments, console: captured.console, currentDirectory: directory.url)
    return CLIRun(code: code, out: captured.out, err: captured.err)
}

/// What `skillbook NAME --help` must show for each command.
struct HelpCase: Sendable, CustomTestStringConvertible {
    var command: String
    var usage: String
    /// The option lines of the command's own options, exactly.
    var options: [String]
    /// The width of the option column: its longest option.
    var width = 15

    var testDescription: String { command }
}

/// The options every command has, with the option column `width` wide.
private func globalOptionLines(width: Int = 15) -> [String] {
    [
        ("--playbooks DIR", "Where playbooks are found by name (default: ./Playbooks)."),
        ("--state DIR", "State directory (default: $SKILLBOOK_HOME, else $XDG_STATE_HOME/skillbook, else ~/.local/state/skillbook)."),
        ("--no-color", "Never colour the output (NO_COLOR is respected too)."),
        ("-h, --help", "Show this help."),
    ].map { "  \($0.0)\(String(repeating: " ", count: width - $0.0.count))  \($0.1)" }
}

private let helpCases = [
    HelpCase(
        command: "run", usage: "Usage: skillbook run NAME|FILE [-i KEY=VALUE]... [--inputs FILE] [--json]",
        options: [
            "  -i, --input KEY=VALUE  Set an input; the text is coerced to the input's type ([a, b] for lists). Repeatable.",
            "  --inputs FILE          Read inputs from a YAML or JSON mapping.",
            "  --json                 Print one JSON object per event on stdout; the last is run.finished.",
            "  --dry-run              Check and plan: run read-only (query) skills, show what actions would do.",
            "  -y, --yes              Approve every confirmation (steps whose skill has confirm).",
        ], width: 21),
    HelpCase(command: "validate", usage: "Usage: skillbook validate [PATH...]", options: []),
    HelpCase(command: "list", usage: "Usage: skillbook list [--json]", options: ["  --json           Print a JSON array."]),
    HelpCase(command: "show", usage: "Usage: skillbook show NAME|FILE", options: []),
    HelpCase(
        command: "skills", usage: "Usage: skillbook skills [ID] [--json|--markdown]",
        options: [
            "  --json           Print descriptors with parameters and output as JSON Schema.",
            "  --markdown       Print a reference page of the skills in Markdown.",
        ]),
    HelpCase(command: "schema", usage: "Usage: skillbook schema", options: []),
]

@Suite struct SkillbookCLITests {
    @Test func generalHelpListsEveryCommandAndTheExitCodes() async {
        let run = await bare(["--help"])
        #expect(run.code == 0)
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("Usage: skillbook COMMAND [options]"))
        #expect(
            Array(lines.drop { $0 != "Commands:" }.prefix(7)) == [
                "Commands:",
                "  run       Run a playbook.",
                "  validate  Check playbooks without running anything.",
                "  list      List the playbooks in the playbooks folder.",
                "  show      Show a playbook: inputs, steps and outputs.",
                "  skills    List skills, or describe one.",
                "  schema    Print the JSON Schema of the playbook format (for editors).",
            ])
        #expect(
            Array(lines.drop { $0 != "Options for every command:" }.prefix(8))
                == ["Options for every command:"] + globalOptionLines() + [
                    "  --version        Print the version.", "",
                    "Exit codes: 0 success, 1 run failed (rolled back), 2 usage or validation error,",
                ])
        #expect(lines.contains("3 rollback incomplete, 130 interrupted."))
        #expect(await bare(["-h"]).out == run.out)
        #expect(await bare(["help"]).out == run.out)
    }

    @Test func noCommandPrintsTheHelpAsAUsageError() async {
        let run = await bare([])
        #expect(run.code == 2)
        #expect(run.out.isEmpty)
        #expect(run.err == SkillbookCLI.generalHelp)
    }

    @Test(arguments: helpCases)
    func everyCommandHasHelp(_ help: HelpCase) async throws {
        let spec = try #require(SkillbookCLI.commands.first { $0.spec.name == help.command }?.spec)
        for arguments in [[help.command, "--help"], [help.command, "-h"], ["help", help.command], ["--help", help.command]] {
            let run = await bare(arguments)
            #expect(run.code == 0, "\(arguments)")
            #expect(run.err.isEmpty)
            #expect(run.out == spec.helpText, "\(arguments)")
        }
        let lines = spec.helpText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == spec.summary)
        #expect(lines.contains(help.usage))
        let options = Array(lines.drop { $0 != "Options:" }.dropFirst().prefix(help.options.count + 4))
        #expect(options == help.options + globalOptionLines(width: help.width))
    }

    @Test func helpWinsOverMissingArgumentsAndOtherOptions() async {
        let run = await bare(["show", "--state", "/nowhere", "--help"])
        #expect(run.code == 0)
        #expect(run.out.hasPrefix("Show a playbook: inputs, steps and outputs.\n"))
    }

    @Test func version() async {
        for arguments in [["--version"], ["version"]] {
            let run = await bare(arguments)
            #expect(run.code == 0)
            #expect(run.out == "skillbook \(SkillbookCLI.version)\n")
            #expect(run.err.isEmpty)
        }
        #expect(SkillbookCLI.version.split(separator: ".").count == 3)
    }

    @Test func anUnknownCommandGetsADidYouMeanAndExitCodeTwo() async {
        let typo = await bare(["valdate", "x.yaml"])
        #expect(typo.code == 2)
        #expect(typo.out.isEmpty)
        #expect(typo.err == "skillbook: error: unknown command 'valdate'; did you mean 'validate'?\nRun 'skillbook --help' for usage.\n")

        let unrelated = await bare(["frobnicate"])
        #expect(unrelated.code == 2)
        #expect(unrelated.err == "skillbook: error: unknown command 'frobnicate'\nRun 'skillbook --help' for usage.\n")
    }

    @Test func anUnknownOptionGetsADidYouMeanAndExitCodeTwo() async {
        let run = await bare(["run", "hello-notes", "--jsn"])
        #expect(run.code == 2)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "skillbook: error: unknown option '--jsn' for 'skillbook run'; did you mean '--json'?\nRun 'skillbook run --help' for usage.\n"
        )
        let global = await bare(["list", "--playbook", "x"])
        #expect(global.err.hasPrefix("skillbook: error: unknown option '--playbook' for 'skillbook list'; did you mean '--playbooks'?\n"))
    }
}
