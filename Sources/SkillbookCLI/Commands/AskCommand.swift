import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost

extension Option where Value == Bool {
    static var explain: Self { Self("--explain", help: "Decide only: print what would run; nothing runs, nothing is journaled.") }
}

extension Option where Value == String {
    static var now: Self { Self("--now", value: "TIME", help: "Take TIME (ISO 8601) as now, so relative dates are reproducible.") }
    static var save: Self {
        Self("--save", value: "FILE", help: "Write what runs (or would run) as a playbook to FILE (never overwritten).")
    }
}

/// `skillbook ask "REQUEST" [--explain] [--json] [--now ISO] [--timezone ZONE] [--save FILE] [--yes] [-i k=v]…`
enum AskCommand: Command {
    static let spec = CommandSpec(
        name: "ask", summary: "Say what you want; run the playbook, skill or plan that does it.", arguments: "\"REQUEST\"",
        options: [
            Option.explain.spec, Option.json.withHelp("Print the decision as one JSON object (then run events as JSON lines).").spec,
            Option.now.spec, Option.timezone.withHelp("The time zone of relative dates (default: the machine's).").spec,
            Option.save.spec, Option.yes.withHelp("Approve every confirmation.").spec, Option.input.spec,
        ],
        positionals: 1...1,
        discussion: """
            The request (English or Chinese) is matched offline against the playbooks' triggers (layer 1)
            and the skills' examples (layer 2); what it captures ("tomorrow", a URL, a path, a title)
            becomes the inputs, coerced to their types. A missing required input is asked for on a
            terminal, otherwise reported (exit 2). Only a request nothing covers, one that needs
            several skills in a row, or one the matcher is unsure of (the model then chooses among
            the nearest playbooks and skills), goes to a language model (layer 3), configured by
            SKILLBOOK_MODEL_URL (an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1),
            SKILLBOOK_MODEL and SKILLBOOK_API_KEY. A model's plan is checked like a playbook (only
            listed skills, typed parameters, references to earlier outputs), shown, and every action
            in it is confirmed unless --yes. Runs are journaled (trigger 'ask') and roll back on failure.
            Nothing matched and no model: exit 2 with the three nearest playbooks and skills.
            --json prints {"layer", "target", "inputs", "confidence", "candidates", "plan", "question"}.
            """,
        examples: [
            "skillbook ask \"remind me tomorrow 9am to call Ada\"",
            "skillbook ask \"明天早上9点提醒我交报告\" --explain --json --now 2026-12-01T09:15:00+01:00 --timezone Europe/Berlin",
            "skillbook ask \"summarize https://example.com and save it as a note\" --save summary.yaml",
        ])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let request = arguments.positionals[0]
        let clock = try AskClock.make(now: arguments[.now], timezone: arguments[.timezone], command: spec.name)
        let inputTexts = try Invocation.keyValues(arguments[.input], command: spec.name)
        var host = try invocation.host(arguments, confirmation: invocation.confirmation(approveAll: arguments[.yes]))
        var configuration = host.configuration
        configuration.timeZone = clock.timeZone
        host = PlaybookHost(configuration, mcpServers: host.mcpServers)
        if let save = arguments[.save], FileManager.default.fileExists(atPath: host.file(save).path) {
            throw UsageError(message: "--save: \(save) exists; it is not overwritten (choose another file or remove it)", command: spec.name)
        }
        let ask = AskFlow(
            host: host, invocation: invocation, request: request, clock: clock, inputTexts: inputTexts,
            explain: arguments[.explain], json: arguments[.json], yes: arguments[.yes], save: arguments[.save])
        return try await ask.run()
    }
}
