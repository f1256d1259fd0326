import Foundation
import SkillbookCore
import SkillbookHost

/// `skillbook show NAME`
enum ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show", summary: "Show a playbook: triggers, schedule, inputs, steps and outputs.", arguments: "NAME|FILE",
        options: [], positionals: 1...1, operands: .playbook)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        await host.listUncachedMCPServers()
        let registry = try host.loadRegistry().registry
        let file = try host.loadPlaybook(at: host.locatePlaybook(arguments.positionals[0]), registry: registry)
        DiagnosticPrinter(console: invocation.console, sources: [file.displayName: file.text]).print(file.result.diagnostics)
        guard let playbook = file.result.playbook else { return .usage }
        let console = invocation.console
        console.out("\(playbook.name) — \(file.displayName)")
        if !playbook.description.isEmpty { console.out(playbook.description) }
        if !playbook.triggers.isEmpty {
            console.out("\ntriggers:")
            for trigger in playbook.triggers { console.out("  \(trigger)") }
        }
        if !playbook.schedule.isEmpty {
            console.out("\nschedule:")
            for entry in playbook.schedule { console.out("  " + scheduleText(entry)) }
        }
        if !playbook.inputs.isEmpty {
            console.out("\ninputs:")
            for input in playbook.inputs {
                var line = "  \(input.name): \(SchemaText.line(input.schema))"
                if input.defaultExpression != nil { line += ", default computed per run" }
                if input.isRequired { line += ", required" }
                if let description = input.schema.description { line += " — \(description)" }
                console.out(line)
            }
        }
        console.out("\nsteps (on failure: \(playbook.onFailure.rawValue)):")
        for (number, step) in playbook.steps.enumerated() {
            var line = "  \(number + 1). \(step.id): \(step.skill)"
            if let policy = step.onFailure { line += " [on_failure: \(policy.rawValue)]" }
            if step.retry.attempts > 1 { line += " [retry: \(step.retry.attempts)]" }
            if step.when != nil { line += " [when]" }
            console.out(line)
            for mapping in step.with {
                console.out("       \(mapping.name) ← \(sourceText(of: mapping.value))")
            }
        }
        if !playbook.outputs.isEmpty {
            console.out("\noutputs:")
            for output in playbook.outputs {
                console.out("  \(output.name) ← \(sourceText(of: output.value))")
            }
        }
        return .success
    }

    /// `cron 0 7 * * 1-5 in Europe/Berlin; catch_up: latest, overlap: skip; inputs: {n: 2}`.
    static func scheduleText(_ entry: ScheduleEntry) -> String {
        var text: String
        switch entry.trigger {
        case .cron(let cron): text = "cron \(cron.source)"
        case .every(let seconds): text = "every \(everyText(seconds))"
        }
        if let zone = entry.timezone { text += " in \(zone)" }
        text += "; catch_up: \(entry.catchUp.rawValue), overlap: \(entry.overlap.rawValue)"
        if !entry.inputs.isEmpty {
            text += "; inputs: {" + entry.inputs.map { "\($0.name): \(JSONText.encode($0.value))" }.joined(separator: ", ") + "}"
        }
        return text
    }

    /// `1h30m`, `10s`, `1.5s`: an interval as `every:` takes it.
    static func everyText(_ seconds: Double) -> String {
        guard seconds == seconds.rounded(), seconds < Double(Int.max) else { return FixedPoint.text(seconds, digits: 3) + "s" }
        let whole = Int(seconds)
        var parts = ""
        if whole >= 3600 { parts += "\(whole / 3600)h" }
        if whole % 3600 >= 60 { parts += "\((whole % 3600) / 60)m" }
        if whole % 60 > 0 || parts.isEmpty { parts += "\(whole % 60)s" }
        return parts
    }

    /// The value on one line: expressions as written, literals as JSON, in flow style even when
    /// the file uses block style.
    static func sourceText(of value: MappedValue) -> String {
        switch value.content {
        case .literal(let literal): JSONText.encode(literal)
        case .template(let template): template.source
        case .array(let items): "[" + items.map(sourceText).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { "\($0.key): \(sourceText(of: $0.value))" }.joined(separator: ", ") + "}"
        }
    }
}
