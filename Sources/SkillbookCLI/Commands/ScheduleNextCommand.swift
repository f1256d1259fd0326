import Foundation
import SkillbookSchedule

/// `skillbook schedule next EXPR [--timezone ZONE] [--from TIME] [--count N]`
enum ScheduleNextCommand: Command {
    static let spec = CommandSpec(
        name: "schedule next", summary: "Print the next fire times of a cron expression.",
        usage: "EXPR [--timezone ZONE] [--from TIME] [--count N]",
        options: [
            OptionSpec(names: ["--timezone"], valueName: "ZONE", help: "IANA zone (default: the machine's)."),
            OptionSpec(
                names: ["--from"], valueName: "TIME",
                help: "Start after TIME (default: now); without an offset, a wall time in ZONE."),
            OptionSpec(names: ["--count"], valueName: "N", help: "How many fire times (default 5, at most 1000)."),
        ],
        positionals: 1...1,
        discussion: "One ISO 8601 time with offset per line, with Debian cron's rules around DST changes.",
        examples: ["skillbook schedule next \"30 2 * * *\" --timezone Europe/Berlin --from 2026-03-28T12:00 --count 3"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
        var count = 5
        if let text = arguments.value("count") {
            guard let number = Int(text) else { throw UsageError(message: "--count: '\(text)' is not a whole number", command: spec.name) }
            count = number
        }
        let result = ScheduleNext.lines(
            expression: arguments.positionals[0], timezone: arguments.value("timezone"), from: arguments.value("from"),
            count: count)
        switch result {
        case .success(let lines):
            for line in lines { invocation.console.out(line) }
            return 0
        case .failure(let failure):
            for message in failure.messages { invocation.console.err("error: \(message)") }
            return 2
        }
    }
}
