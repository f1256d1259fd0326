import Foundation
import SkillbookCore

/// An action's optional path given an earlier step's output that is no path (mail.send
/// `ca_file: ${{ steps.s1.output.stderr }}`, `${{ steps.s1.output.description }}`): a place the
/// model filled from what was at hand — the step would read a file named by a text. The checker's
/// fix leaves it out; a required path is the model's to repair.
enum PathReferenceLint {
    /// Each such parameter: its step, name and the referenced field.
    static func found(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], pathFields: [String: Set<String>],
        fields: [String: [String]] = [:]
    ) -> [(step: Int, name: String, field: String)] {
        guard !pathFields.isEmpty else { return [] }
        let targets = Dictionary(plan.steps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [(step: Int, name: String, field: String)] = []
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook && kinds[step.target] == .action {
            guard let schema = parameters[step.target] else { continue }
            for (name, value) in step.with where !schema.required.contains(name) {
                guard let property = schema.property(name), property.format == "path", let text = value.stringValue,
                    let (id, field) = Self.reference(text), let source = targets[id], !source.isPlaybook,
                    let paths = pathFields[source.target], !paths.contains(field),
                    // (only a field the skill declares: one inside an object of open shape may be a path)
                    fields[source.target]?.contains(field) ?? true
                else { continue }
                found.append((i, name, "steps.\(id).output.\(field)"))
            }
        }
        return found
    }

    static func lint(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], pathFields: [String: Set<String>],
        fields: [String: [String]] = [:]
    ) -> [Diagnostic] {
        found(plan, kinds: kinds, parameters: parameters, pathFields: pathFields, fields: fields).map { i, name, field in
            let step = plan.steps[i]
            return .error(
                "step '\(step.id)' (\(step.target)) parameter '\(name)' is a path, but \(field) is no path; leave '\(name)' out",
                path: "steps[\(i)].with.\(name)")
        }
    }

    static func fixes(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], pathFields: [String: Set<String>],
        fields: [String: [String]] = [:]
    ) -> [PlanFix] {
        found(plan, kinds: kinds, parameters: parameters, pathFields: pathFields, fields: fields).map { PlanFix(step: $0.step, parameter: $0.name, value: nil) }
    }

    /// `("s1", "stderr")` for exactly `${{ steps.s1.output.stderr }}`, else `nil`.
    static func reference(_ text: String) -> (id: String, field: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("${{"), trimmed.hasSuffix("}}") else { return nil }
        let inner = trimmed.dropFirst(3).dropLast(2).trimmingCharacters(in: .whitespaces)
        let parts = inner.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "steps", parts[2] == "output",
            parts[3].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "*" })
        else { return nil }
        return (String(parts[1]), String(parts[3]))
    }
}

extension PlanOffer {
    /// The output fields of `schema` that hold paths (`format: path`), as reference paths
    /// (`archive`, `items.*.path`), to the depth `typedPaths` goes.
    static func pathFields(of schema: Schema, prefix: String = "", depth: Int = 0) -> Set<String> {
        var fields: Set<String> = []
        for (name, field) in schema.properties where !field.secret {
            let path = prefix + name
            if field.format == "path" || (field.type == .array && field.items?.format == "path") { fields.insert(path) }
            guard depth < 2 else { continue }
            if field.type == .object {
                fields.formUnion(pathFields(of: field, prefix: path + ".", depth: depth + 1))
            } else if field.type == .array, let items = field.items, items.type == .object {
                fields.formUnion(pathFields(of: items, prefix: path + ".*.", depth: depth + 1))
            }
        }
        return fields
    }
}
