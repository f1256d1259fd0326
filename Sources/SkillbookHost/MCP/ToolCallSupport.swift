import Foundation
import SkillbookCore
import SkillbookMCP
import SkillbookRuntime
import Synchronization

/// A skill's arguments coerced to its parameters as `-i` values are to inputs (`Coercion`), with
/// top-level defaults filled in, then validated; every problem is reported.
enum SkillArguments {
    struct Problems: Error {
        var lines: [String]
    }

    static func coerce(_ arguments: ValueObject, for descriptor: SkillDescriptor, host: PlaybookHost) -> Result<ValueObject, Problems> {
        let configuration = host.configuration
        let coercion = Coercion(dates: DateParser(now: configuration.clock.now(), timeZone: configuration.timeZone))
        guard case .object(var coerced) = coercion.coerce(.object(arguments), to: descriptor.parameters) else {
            return .failure(Problems(lines: ["arguments must be an object"]))
        }
        for (name, schema) in descriptor.parameters.properties where coerced[name] == nil {
            if let value = schema.defaultValue { coerced[name] = value }
        }
        let violations = SchemaValidator.validate(.object(coerced), against: descriptor.parameters)
        guard violations.isEmpty else {
            return .failure(Problems(lines: violations.map { $0.path.isEmpty ? rootProblem($0.predicate) : $0.description }))
        }
        return .success(coerced)
    }

    /// `missing required property 'text'` rather than `value is missing …`.
    static func rootProblem(_ predicate: String) -> String {
        for prefix in ["is ", "has "] where predicate.hasPrefix(prefix) { return String(predicate.dropFirst(prefix.count)) }
        return predicate
    }
}

/// What the person is asked to approve: the terminal prompt's words (`Step 'x' runs notes.delete:
/// Delete notes`), with the call's values, secrets masked.
enum ToolCallSummary {
    static func playbook(_ name: String, _ playbook: Playbook, inputs: ValueObject, _ steps: [PlaybookStep], _ registry: SkillRegistry)
        -> String
    {
        let lines = steps.map { step in
            "Step '\(step.id)' runs \(step.skill): \(registry[step.skill]?.descriptor.summary ?? step.skill)"
        }
        return "Run playbook '\(name)'\(values(inputs, schema: WorkspaceToolCatalog.inputSchema(playbook)))\n" + lines.joined(separator: "\n")
    }

    static func skill(_ descriptor: SkillDescriptor, _ arguments: ValueObject) -> String {
        "Run \(descriptor.id): \(descriptor.summary)\(values(arguments, schema: descriptor.parameters))"
    }

    private static func values(_ object: ValueObject, schema: Schema?) -> String {
        guard !object.isEmpty else { return "" }
        let shown = object.sorted { $0.key < $1.key }.map { key, value in
            let secret = schema?.properties.first { $0.name == key }?.schema.containsSecret ?? false
            return "\(key): \(secret ? "\"***\"" : JSONText.encode(value))"
        }
        return " with " + shown.joined(separator: ", ")
    }
}

/// A host error as lines of text for an MCP client.
enum HostErrorLines {
    static func lines(_ error: HostError) -> [String] {
        switch error {
        case .invalidInputs(let diagnostics), .invalidPlaybook(let diagnostics, _), .invalidManifests(let diagnostics, _):
            diagnostics.filter { $0.severity == .error }.map { diagnostic in
                diagnostic.message + (diagnostic.hint.map { "; \($0)" } ?? "")
            }
        case .failed(let message): [message]
        default: ["\(error)"]
        }
    }
}

/// Run events as MCP progress: each finished step counts one, a batch step's progress a
/// fraction of one; `total` is the number of steps.
final class RunProgress: Sendable {
    private let steps: Int
    private let report: @Sendable (MCPProgress) -> Void
    private let done = Mutex(0)

    init(steps: Int, report: @escaping @Sendable (MCPProgress) -> Void) {
        self.steps = steps
        self.report = report
    }

    var hear: RunEventHandler {
        { [self] event in receive(event) }
    }

    private func receive(_ event: RunEvent) {
        let total = Double(max(steps, 1))
        switch event {
        case .stepStarted(let step, let target, _, _):
            let finished = done.withLock { $0 }
            report(MCPProgress(progress: Double(finished) + 0.001, total: total, message: "step '\(step)' runs \(target)"))
        case .stepProgress(let step, let completed, let of, let unit) where of > 0 && unit != .skill:
            let finished = done.withLock { $0 }
            let fraction = 0.001 + 0.998 * Double(completed) / Double(of)
            report(MCPProgress(progress: Double(finished) + fraction, total: total, message: "step '\(step)': \(completed) of \(of)"))
        case .stepSucceeded(let step, _, _), .stepSkipped(let step, _), .stepFailed(let step, _, _, _):
            let finished = done.withLock { count in
                count += 1
                return count
            }
            report(MCPProgress(progress: Double(min(finished, steps)), total: total, message: "step '\(step)' finished"))
        default:
            break
        }
    }
}
