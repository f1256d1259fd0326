import SkillbookCore

/// A playbook's steps as a graph for the playbook page's SVG: one node per step (a skill, or a
/// sub-playbook), and a data edge from step `a` to step `b` for every `${{ steps.a… }}` in `b`'s
/// parameters, `foreach` or `when`. Steps run in order; the edges say which output feeds which.
enum StepGraph {
    static func json(_ playbook: Playbook) -> Value {
        let ids = Set(playbook.steps.map(\.id))
        var nodes: [Value] = []
        var edges: [Value] = []
        for step in playbook.steps {
            var node: ValueObject = [
                "id": .string(step.id), "kind": .string(step.playbook == nil ? "skill" : "playbook"),
                "target": .string(step.playbook ?? step.skill), "line": .int(step.location.line),
            ]
            if step.foreach != nil { node["foreach"] = true }
            if step.when != nil { node["when"] = true }
            nodes.append(.object(node))
            var sources: [String] = []
            let values = step.with.map(\.value) + [step.foreach, step.when].compactMap { $0 }
            for value in values {
                for (template, _) in value.templates {
                    for expression in template.expressions {
                        for path in expression.references where path.count >= 2 && path[0] == "steps" {
                            let source = path[1]
                            if ids.contains(source), source != step.id, !sources.contains(source) { sources.append(source) }
                        }
                    }
                }
            }
            edges += sources.map { ["from": .string($0), "to": .string(step.id), "kind": "data"] }
        }
        return ["nodes": .array(nodes), "edges": .array(edges)]
    }
}
