extension PlaybookChecker {
    /// Warnings where a secret flows to a place that exists to show or keep it — a note's title,
    /// `debug.echo`, a playbook output — or decides a `when` (whether a step runs then tells
    /// something about the secret). Each names the path the secret takes, from its source
    /// (`inputs.token`, `secret('smtp')`) through the steps whose output carries it.
    func checkSecretFlows(_ playbook: Playbook, _ diagnostics: inout [Diagnostic]) {
        let secretInputs = playbook.inputs.filter { $0.schema.containsSecret || $0.schema.secretFrom != nil }
        // A `when` is warned about for a secret with characters to branch on, not a secret boolean.
        let secretTexts = Set(secretInputs.filter { ExprType(schema: $0.schema) != .boolean }.map(\.name))
        let secretNames = Set(secretInputs.map(\.name))
        var carriers: [String: String] = [:]
        func path(_ value: MappedValue, onlyTexts: Bool = false) -> String? {
            if let source = value.readsSecret(secretInputs: onlyTexts ? secretTexts : secretNames) { return source }
            for (template, _) in value.templates {
                for segment in template.segments {
                    guard case .expression(let expression) = segment else { continue }
                    for reference in expression.references where reference.count > 1 && reference[0] == "steps" {
                        if let carried = carriers[reference[1]] { return "\(carried) → steps.\(reference[1]).output" }
                    }
                }
            }
            return nil
        }
        func visit(_ steps: [PlaybookStep], within prefix: String) {
            for step in steps {
                let stepName = "step '\(prefix)\(step.id)'"
                if let when = step.when, let source = path(when, onlyTexts: true) {
                    diagnostics.append(
                        .warning(
                            "\(stepName) decides 'when' on a secret (\(source) → when): whether it runs tells something about the "
                                + "secret, and the record shows it", at: when.location))
                }
                for mapping in step.with {
                    guard let source = path(mapping.value) else { continue }
                    carriers[step.id] = carriers[step.id] ?? "\(source) → \(stepName)"
                    if step.skill == "notes.create", mapping.name == "title" {
                        diagnostics.append(
                            .warning(
                                "a secret flows into a note's title (\(source) → \(stepName) notes.create 'title'): the note keeps it "
                                    + "in clear, the run's record shows ***", at: mapping.value.location))
                    } else if step.skill == "debug.echo" {
                        diagnostics.append(
                            .warning(
                                "a secret flows into debug.echo (\(source) → \(stepName) '\(mapping.name)'), which only shows it: "
                                    + "every record and event shows ***", at: mapping.value.location))
                    }
                }
                visit(step.rollback ?? [], within: "\(prefix)\(step.id) rollback ")
            }
        }
        visit(playbook.steps, within: "")
        for output in playbook.outputs {
            guard let source = path(output.value) else { continue }
            diagnostics.append(
                .warning(
                    "a secret flows into the playbook's output '\(output.name)' (\(source) → outputs.\(output.name)), which is "
                        + "recorded and shown as ***", at: output.value.location))
        }
    }
}
