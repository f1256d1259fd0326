import Foundation
import SkillbookSchedule

extension Option where Value == String {
    static var timezone: Self { Self("--timezone", value: "ZONE", help: "IANA zone (default: the machine's).") }
    static var from: Self {
        Self("--from", value: "TIME", help: "Start after TIME (default: now); without an offset, a wall time in ZONE.")
    }
    static var count: Self { Self("--count", value: "N", help: "How many fire times (default 5, at most 1000).") }
}

/// `skillbook schedule next EXPR [--timezone ZONE] [--from TIME] [--count N]`
enum ScheduleNextCommand: Command {
    static let spec = CommandSpec(
        name: "schedule next", summary: "Print the next fire times of a cron expression.", arguments: "EXPR",
        options: [Option.timezone.spec, Option.from.spec, Option.count.spec],
        positionals: 1...1,
        discussion: "One ISO 8601 time with offset per line, with Debian cron's rules around DST changes.",
        examples: ["skillbook schedule next \"30 2 * * *\" --timezone Europe/Berlin --from 2026-03-28T12:00 --count 3"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        var count = 5
        if let text = arguments[.count] {
            guard let number = Int(text) else { throw UsageError(message: "--count: '\(text)' is not a whole number", command: spec.name) }
            count = number
        }
        let result = ScheduleNext.lines(
            expression: arguments.positionals[0], timezone: arguments[.timezone], from: arguments[.from], count: count)
        switch result {
        case .success(let lines):
            for line in lines { invocation.console.out(line) }
            if lines.count < count {
                invocation.console.err(
                    "\(lines.isEmpty ? "no fire" : "no more fires") within \(CronSchedule.searchYears) years"
                        + " (a day that never comes, or every time in a DST gap, where a schedule without a fixed time never fires)")
            }
            return .success
        case .failure(let failure):
            throw CommandFailure(messages: failure.messages, exitCode: .usage)
        }
    }
}
