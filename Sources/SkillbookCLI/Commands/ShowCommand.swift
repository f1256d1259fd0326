import Foundation
import SkillbookCore

/// `skillbook show NAME`
enum ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show", summary: "Show a playbook: inputs, steps and outputs.", usage: "NAME|FILE",
        options: [], positionals: 1...1)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
        let workspace = invocation.workspace(arguments)
        let registry = try workspace.registry()
        let url = try workspace.locatePlaybook(arguments.positionals[0])
        let file = try LoadedPlaybookFile(url: url, displayName: workspace.displayPath(url), registry: registry, library: workspace.library)
        DiagnosticPrinter(console: invocation.console, sources: [file.displayName: file.text]).print(file.result.diagnostics)
        guard let playbook = file.result.playbook else { return 2 }
        let console = invocation.console
        console.out("\(playbook.name) — \(file.displayName)")
        if !playbook.description.isEmpty { console.out(playbook.description) }
        if !playbook.triggers.isEmpty {
            console.out("\ntriggers:")
            for trigger in playbook.triggers { console.out("  \(trigger)") }
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
                console.out("       \(mapping.name) ← \(sourceText(of: mapping.value, in: file.text))")
            }
        }
        if !playbook.outputs.isEmpty {
            console.out("\noutputs:")
            for output in playbook.outputs {
                console.out("  \(output.name) ← \(sourceText(of: output.value, in: file.text))")
            }
        }
        return 0
    }

    /// The value as written in the file, on one line.
    static func sourceText(of value: MappedValue, in text: String) -> String {
        if case .template(let template) = value.content { return template.source }
        if let literal = value.literalValue { return JSONText.encode(literal) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = value.range.start
        guard start.line - 1 < lines.count else { return "…" }
        return String(lines[start.line - 1].dropFirst(start.column - 1)).trimmingCharacters(in: .whitespaces)
    }
}
