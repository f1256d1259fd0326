public import Foundation
public import SkillbookCore

/// Resolves a run's inputs: values from an inputs file and from `-i key=value`, coerced leniently
/// toward each input's schema, then defaults, then validation — every problem reported at once.
public struct InputResolver: Sendable {
    public var now: Date
    public var timeZone: TimeZone
    /// Environment variables; a default sees only those the playbook declares in `env:`.
    public var variables: [String: String]

    public init(now: Date = Date(), timeZone: TimeZone = .current, variables: [String: String] = [:]) {
        self.now = now
        self.timeZone = timeZone
        self.variables = variables
    }

    /// - Parameters:
    ///   - values: typed values, e.g. read from `--inputs FILE`.
    ///   - commandLine: `key=value` texts from `-i`, later ones winning over `values`.
    public func resolve(
        _ playbook: Playbook, values: ValueObject = ValueObject(), commandLine: [(key: String, text: String)] = []
    ) throws(DiagnosticError) -> ValueObject {
        let coercion = Coercion(dates: DateParser(now: now, timeZone: timeZone))
        var diagnostics: [Diagnostic] = []
        var provided = ValueObject()
        let known = playbook.inputs.map(\.name)

        func schema(for key: String) -> Schema? {
            if let input = playbook.inputs.first(where: { $0.name == key }) { return input.schema }
            let suggestion = Suggestion.closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
            let accepted = known.isEmpty ? " (it takes no inputs)" : " (it takes: \(known.joined(separator: ", ")))"
            diagnostics.append(
                .error("playbook '\(playbook.name)' has no input '\(key)'\(suggestion)\(suggestion.isEmpty ? accepted : "")", path: "inputs.\(key)"))
            return nil
        }
        /// What the user wrote, for messages about a value coercion changed.
        var written: [String: Value] = [:]
        for (key, value) in values {
            if let schema = schema(for: key) {
                provided[key] = coercion.coerce(value, to: schema)
                written[key] = value
            }
        }
        for (key, text) in commandLine {
            if let schema = schema(for: key) {
                provided[key] = coercion.coerceCommandLine(text, to: schema)
                written[key] = .string(text)
            }
        }

        var resolved = ValueObject()
        let defaultsContext = EvaluationContext(
            env: variables.filter { playbook.env.contains($0.key) }, now: now, timeZone: timeZone)
        for input in playbook.inputs {
            if let value = provided[input.name] {
                resolved[input.name] = value
            } else if let expression = input.defaultExpression {
                do {
                    resolved[input.name] = coercion.coerce(try expression.evaluate(in: defaultsContext), to: input.schema)
                } catch {
                    diagnostics.append(
                        .error("input '\(input.name)': its default could not be evaluated: \(error.message)", path: "inputs.\(input.name)"))
                }
            } else if let value = input.schema.defaultValue {
                resolved[input.name] = value
            } else {
                diagnostics.append(
                    .error(
                        "missing required input '\(input.name)'; pass it with -i \(input.name)=VALUE",
                        path: "inputs.\(input.name)"))
                continue
            }
            // null is validated like any value: it fits a schema that allows it (`type: [integer, "null"]`).
            guard let value = resolved[input.name] else { continue }
            var asWritten = ""
            if let original = written[input.name], Self.text(of: original) != Self.text(of: value), !input.schema.containsSecret {
                asWritten = " (written as \(SchemaValidator.describe(original)))"
            }
            for violation in SchemaValidator.validate(value, against: input.schema) {
                let subject = "input '\(([PathComponent.key(input.name)] + violation.path).rendered())'"
                diagnostics.append(.error("\(subject) \(violation.predicate)\(asWritten)", path: "inputs.\(input.name)"))
            }
        }
        if diagnostics.hasErrors { throw DiagnosticError(diagnostics) }
        return resolved
    }

    /// A value as a user would type it: text as is, anything else as JSON.
    private static func text(of value: Value) -> String {
        value.stringValue ?? JSONText.encode(value)
    }
}
