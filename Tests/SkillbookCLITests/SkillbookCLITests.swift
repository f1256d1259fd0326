import SkillbookTesting
import SkillbookCore
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

/// The line `--help` prints for an option: its names, value name, help text.
private func optionLine(_ option: OptionSpec, in lines: [String]) -> String? {
    let names = option.names.joined(separator: ", ") + (option.valueName.map { " \($0)" } ?? "")
    return lines.first { $0.hasPrefix("  \(names) ") && $0.contains(option.help) }
}

@Suite struct SkillbookCLITests {
    @Test func generalHelpListsEveryCommandAndTheExitCodes() async {
        let run = await bare(["--help"])
        #expect(run.code == 0)
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("Usage: skillbook COMMAND [options]"))
        let commands = Array(lines.drop { $0 != "Commands:" }.dropFirst().prefix(SkillbookCLI.commands.count))
        #expect(commands.count == SkillbookCLI.commands.count)
        for (line, command) in zip(commands, SkillbookCLI.commands) {
            #expect(line.hasPrefix("  \(command.spec.name) ") && line.hasSuffix(command.spec.summary), "\(line)")
        }
        let options = Array(lines.drop { $0 != "Options for every command:" })
        for option in CommandSpec.globalOptions {
            #expect(optionLine(option, in: options) != nil, "\(option.names)")
        }
        #expect(options.contains { $0.hasPrefix("  --version ") && $0.hasSuffix("Print the version.") })
        #expect(
            lines.contains(
                "Exit codes: 0 success, 1 run failed, 2 usage or validation error, 3 rollback incomplete, 4 waiting for an approval, "
                    + "130 interrupted."))
        #expect(await bare(["-h"]).out == run.out)
        #expect(await bare(["help"]).out == run.out)
    }

    @Test func noCommandPrintsTheHelpAsAUsageError() async {
        let run = await bare([])
        #expect(run.code == 2)
        #expect(run.out.isEmpty)
        #expect(run.err == SkillbookCLI.generalHelp)
    }

    @Test(arguments: SkillbookCLI.commands.map(\.spec.name))
    func everyCommandHasHelp(_ name: String) async throws {
        let spec = try #require(SkillbookCLI.commands.first { $0.spec.name == name }?.spec)
        for arguments in [[name, "--help"], [name, "-h"], ["help", name], ["--help", name]] {
            let run = await bare(arguments)
            #expect(run.code == 0, "\(arguments)")
            #expect(run.err.isEmpty)
            #expect(run.out == spec.helpText, "\(arguments)")
        }
        let lines = spec.helpText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == spec.summary)
        #expect(lines.contains { $0.hasPrefix("Usage: skillbook \(name)") })
        let options = Array(lines.drop { $0 != "Options:" })
        for option in spec.allOptions {
            #expect(optionLine(option, in: options) != nil, "\(name): \(option.names)")
        }
    }

    @Test func runHelpShowsItsUsageAndOptionsExactly() async {
        let run = await bare(["run", "--help"])
        let lines = run.out.split(separator: "\n").map(String.init)
        // The usage line comes from the same declarations as the options, so it lists --dry-run and --yes.
        #expect(lines.contains("Usage: skillbook run NAME|FILE [-i KEY=VALUE]... [--inputs FILE] [--dry-run] [--queue] [--yes] [--json]"))
        #expect(lines.contains { $0.hasPrefix("  --dry-run ") && $0.hasSuffix("Check and plan: run read-only (query) skills, show what actions would do.") })
        #expect(lines.contains { $0.hasPrefix("  -i, --input KEY=VALUE  Set an input; the text is coerced to the input's type ([a, b] for lists). Repeatable.") })
        #expect(lines.contains { $0.hasPrefix("  -y, --yes ") && $0.hasSuffix("Approve every confirmation (steps whose skill has confirm).") })
    }

    @Test func helpWinsOverMissingArgumentsAndOtherOptions() async {
        let run = await bare(["show", "--state", "/nowhere", "--help"])
        #expect(run.code == 0)
        #expect(run.out.hasPrefix("Show a playbook: triggers, schedule, inputs, steps and outputs.\n"))
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
