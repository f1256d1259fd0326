import SkillbookCore

/// A path the request names that no step uses, while a path parameter takes an earlier step's
/// output instead ("make /tmp/new and pack /tmp/docs into /tmp/docs.tar.gz" planned with
/// archive.create's `paths` ← `${{ steps.s1.output.path }}`): a plan that checks and does
/// something else than asked. A path counts as used when a literal is it or lies inside it
/// (`/tmp/docs/a.txt`), not when it only starts the same (`/tmp/docs.tar.gz`).
enum NamedPathLint {
    static func lint(_ plan: Plan, parameters: [String: Schema], request: String) -> [Diagnostic] {
        let named = RequestValues(request).paths.filter { $0.hasPrefix("/") || $0.hasPrefix("~/") || $0.hasPrefix("./") }
        guard !named.isEmpty else { return [] }
        var literals: [String] = []
        var wired: (step: Plan.Step, index: Int, parameter: String, reference: String)?
        for (i, step) in plan.steps.enumerated() {
            let schema = step.isPlaybook ? nil : parameters[step.target]
            for (name, value) in step.with {
                let texts = PlanLint.strings(in: value)
                literals += texts.filter { !$0.utf8.containsTemplateOpening }
                guard wired == nil, let property = schema?.property(name), takesPath(property),
                    let reference = texts.first(where: { $0.utf8.containsTemplateOpening })
                else { continue }
                wired = (step, i, name, reference)
            }
        }
        guard let wired else { return [] }
        let unused = named.filter { path in
            let folder = path.hasSuffix("/") ? path : path + "/"
            return !literals.contains { $0 == path || $0.hasPrefix(folder) || $0.contains(" \(path)") }
        }
        guard let first = unused.first else { return [] }
        return [
            .error(
                "the request names '\(first)', which no step uses, and step '\(wired.step.id)' parameter '\(wired.parameter)' "
                    + "takes \(wired.reference) instead; write '\(first)' there if that is the path the request means",
                path: "steps[\(wired.index)].with.\(wired.parameter)")
        ]
    }

    /// A path parameter, or a list of paths.
    static func takesPath(_ schema: Schema) -> Bool {
        if schema.format == "path" { return true }
        if schema.type == .array, let items = schema.items { return items.format == "path" }
        return false
    }
}
