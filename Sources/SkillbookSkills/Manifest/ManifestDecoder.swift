public import SkillbookCore

/// Turns a YAML tree into a `SkillManifest`, reporting every problem with its position, the
/// way playbooks are checked: unknown keys (with "did you mean"), wrong types, a bad id, a
/// missing `run`, and `${{ … }}` references to parameters or output fields that do not exist.
public struct ManifestDecoder: Sendable {
    public static let keys = [
        "id", "title", "summary", "examples", "tags", "kind", "confirm", "parameters", "output", "run", "stdin", "undo",
        "timeout", "resources", "env", "idempotent",
    ]

    public init() {}

    public func decode(_ root: YAMLNode?, file: String, diagnostics: inout [Diagnostic]) -> SkillManifest? {
        guard let root else {
            diagnostics.append(
                .error(
                    "the manifest is empty; it needs at least 'id', 'summary' and 'run'",
                    at: SourceLocation(file: file, line: 1, column: 1)))
            return nil
        }
        guard let pairs = root.mapping else {
            diagnostics.append(
                .error("a skill manifest must be a mapping with 'id', 'summary' and 'run', not a \(root.kindName)", at: root.location))
            return nil
        }
        var context = YAMLFieldReader(diagnostics: diagnostics)
        defer { diagnostics = context.diagnostics }

        // Parameters and output first: `run` and `undo` are checked against them.
        var parameters: Schema = .object([:])
        if let node = root["parameters"] { parameters = context.parameters(node) ?? parameters }
        var input = SkillManifest.InputMode.arguments
        if let node = root["stdin"] {
            if node.scalar == "json", case .string = node.value {
                input = .json
            } else {
                context.error(
                    "'stdin' must be 'json' (the command then reads {\"params\", \"context\"} as JSON and prints its output as JSON)",
                    at: node.location)
            }
        }
        var output = input == .json ? SkillManifest.jsonOutput : SkillManifest.commandOutput
        if let node = root["output"] {
            if input == .json {
                output = context.objectSchema(node, "output") ?? output
            } else {
                context.error(
                    "'output' can be declared only with 'stdin: json'; a command that takes arguments outputs "
                        + "{ stdout, stderr, exit_code }",
                    at: root.mapping?.first { $0.key.scalar == "output" }?.key.location ?? node.location)
            }
        }

        var id: (text: String, location: SourceLocation)?
        var summary: String?
        var run: CommandTemplate?
        var manifest = SkillManifest(
            file: file, id: "", idLocation: root.location, summary: "", parameters: parameters, output: output,
            run: CommandTemplate(command: "", arguments: [], location: root.location))
        manifest.input = input
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            let value = pair.value
            switch key {
            case "id":
                guard let text = context.string(value, "id") else { continue }
                id = (text, value.location)
                if !SkillDescriptor.isValidID(text) {
                    context.error(
                        "skill id '\(text)' must have the form domain.name (lowercase letters, digits and '_'), "
                            + "optionally with a version such as '@2'",
                        at: value.location)
                }
            case "title": manifest.title = context.string(value, "title")
            case "summary": summary = context.string(value, "summary")
            case "examples": manifest.examples = context.stringList(value, "examples")
            case "tags": manifest.tags = context.stringList(value, "tags")
            case "resources": manifest.resources = context.stringList(value, "resources")
            case "kind":
                guard let text = value.scalar, let kind = SkillDescriptor.Kind(rawValue: text) else {
                    let suggestion = value.scalar.flatMap { Suggestion.closest(to: $0, in: ["query", "action"]) }
                    context.error(
                        "'kind' must be query or action\(suggestion.map { "; did you mean '\($0)'?" } ?? "")",
                        at: value.location)
                    continue
                }
                manifest.kind = kind
            case "confirm": manifest.confirm = context.bool(value, "confirm") ?? false
            case "idempotent": manifest.idempotent = context.bool(value, "idempotent") ?? false
            case "timeout": manifest.timeout = context.duration(value, "timeout") ?? manifest.timeout
            case "env":
                manifest.environment = context.stringList(value, "env")
                for (index, name) in manifest.environment.enumerated() where !Self.isVariableName(name) {
                    context.error(
                        "'env' lists the names of environment variables to pass on; '\(name)' is not a valid name",
                        at: value.sequence?[index].location ?? value.location)
                }
            case "run":
                run = context.command(value, "run", parameters: parameters, output: nil)
            case "undo":
                manifest.undo = context.command(value, "undo", parameters: parameters, output: output)
            case "parameters", "output", "stdin":
                break
            default:
                context.unknownKey(pair.key, key, in: "manifest", known: Self.keys)
            }
        }
        if root["id"] == nil { context.error("the manifest is missing 'id' (the skill's name, such as 'git.status')", at: root.location) }
        if root["summary"] == nil {
            context.error("the manifest is missing 'summary' (what the skill does, for people and the model)", at: root.location)
        }
        if root["run"] == nil {
            context.error("the manifest is missing 'run' (the command and its arguments, as a list)", at: root.location)
        }
        guard let id, let summary, let run, !context.diagnostics.hasErrors else { return nil }
        for (key, template) in [("run", run), ("undo", manifest.undo)] {
            guard let template else { continue }
            for reference in template.uniqueReferences {
                let (what, schema): (String, Schema?) =
                    switch reference {
                    case .parameter(let name): ("parameter '\(name)'", parameters.property(name))
                    case .output(let field): ("output field '\(field)'", output.property(field))
                    }
                guard schema?.containsSecret == true else { continue }
                context.diagnostics.append(
                    .warning(
                        "'\(key)' passes secret \(what) on the command line, where other users of this machine can read "
                            + "it (ps, /proc)",
                        at: template.location,
                        hint: input == .json
                            ? "leave it out of '\(key)': the command reads it from the JSON on its standard input"
                            : "use 'stdin: json': the command then reads its parameters as JSON on its standard input"))
            }
        }
        manifest.id = id.text
        manifest.idLocation = id.location
        manifest.summary = summary
        manifest.run = run
        return manifest
    }

    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}

/// The manifest's own fields.
extension YAMLFieldReader {
    /// `parameters`: an object schema. Undeclared parameters are refused unless it says otherwise.
    mutating func parameters(_ node: YAMLNode) -> Schema? {
        if let pairs = node.mapping, !pairs.isEmpty,
            !pairs.contains(where: { ["type", "properties"].contains($0.key.scalar ?? "") }),
            pairs.allSatisfy({ $0.value.mapping != nil })
        {
            let names = pairs.compactMap(\.key.scalar).map { "'\($0)'" }.joined(separator: ", ")
            error(
                "'parameters' is an object schema: write 'type: object' and put \(names) under 'properties' "
                    + "(with 'required: [...]' for the ones a call must give)",
                at: node.location)
            return nil
        }
        guard let schema = objectSchema(node, "parameters", closed: true) else { return nil }
        for (name, property) in schema.properties {
            guard let base = property.relativeTo ?? property.items?.relativeTo else { continue }
            guard base != name, schema.property(base)?.format == "path" else {
                let where_ = node["properties"]?[name]
                error(
                    "parameter '\(name)' is 'relativeTo' '\(base)', which must be another parameter with 'format: path'",
                    at: (where_?["relativeTo"] ?? where_?["items"]?["relativeTo"] ?? where_ ?? node).location)
                continue
            }
        }
        return schema
    }

    /// An object schema; `closed` refuses undeclared properties unless it says otherwise.
    mutating func objectSchema(_ node: YAMLNode, _ key: String, closed: Bool = false) -> Schema? {
        guard let schema = SchemaDecoder().decode(node, diagnostics: &diagnostics) else { return nil }
        guard schema.type == .object || (schema.type == nil && !schema.properties.isEmpty) else {
            error("'\(key)' must be an object schema: { type: object, properties: …, required: [...] }", at: node.location)
            return nil
        }
        return Schema(
            type: .object, description: schema.description, defaultValue: schema.defaultValue,
            enumValues: schema.enumValues, properties: schema.properties, required: schema.required,
            additionalProperties: schema.additionalProperties ?? (closed ? false : nil),
            examples: schema.examples, secret: schema.secret)
    }

    /// A `run` or `undo` list; `output` is the output schema when `${{ output.… }}` may be used.
    mutating func command(_ node: YAMLNode, _ key: String, parameters: Schema, output: Schema?) -> CommandTemplate? {
        guard let items = node.sequence else {
            error(
                "'\(key)' must be a list: the command, then its arguments, e.g. [git, status] (it never goes through a shell)",
                at: node.location)
            return nil
        }
        guard let first = items.first else {
            error("'\(key)' is empty; it needs at least the command", at: node.location)
            return nil
        }
        let before = diagnostics.count
        var arguments: [CommandTemplate.Argument] = []
        for item in items {
            guard let text = item.scalar else {
                error("each element of '\(key)' must be text (one argument), not a \(item.kindName)", at: item.location)
                continue
            }
            if let argument = argument(text, item, key, parameters: parameters, output: output) { arguments.append(argument) }
        }
        guard diagnostics.count == before else { return nil }
        guard case .literal(let command) = arguments.first, !command.isEmpty else {
            error(
                "the command (the first element of '\(key)') must be written out, not taken from a parameter",
                at: first.location)
            return nil
        }
        return CommandTemplate(command: command, arguments: Array(arguments.dropFirst()), location: node.location)
    }

    private mutating func argument(
        _ text: String, _ node: YAMLNode, _ key: String, parameters: Schema, output: Schema?
    ) -> CommandTemplate.Argument? {
        guard text.utf8.containsTemplateOpening, case .string = node.value else { return .literal(text) }
        // Where the scalar's text starts, so offsets become columns (one-line scalars only).
        let textStart: SourceLocation? =
            switch node.content {
            case _ where node.range.start.line != node.range.end.line: nil
            case .scalar(_, .plain): node.location
            case .scalar(_, .singleQuoted), .scalar(_, .doubleQuoted): node.location.advanced(by: 1)
            default: nil
            }
        func location(_ offset: Int) -> SourceLocation { textStart?.advanced(by: offset) ?? node.location }

        let template: TemplateString
        do {
            template = try TemplateString.parse(text)
        } catch {
            self.error(error.message, at: location(error.offset))
            return nil
        }
        let allowed = output == nil ? "${{ params.NAME }}" : "${{ params.NAME }} and ${{ output.FIELD }}"
        var pieces: [CommandTemplate.Piece] = []
        var valid = true
        for segment in template.segments {
            switch segment {
            case .text(let part):
                pieces.append(.text(part))
            case .expression(let expression):
                guard let reference = reference(expression, allowed: allowed, key: key, parameters: parameters, output: output, location: location)
                else {
                    valid = false
                    continue
                }
                if template.singleExpression == nil, case .parameter(let name) = reference,
                    parameters.property(name)?.type == .array
                {
                    error(
                        "parameter '\(name)' is a list, which cannot be put inside text; make it a whole element, "
                            + "\"${{ params.\(name) }}\", to pass each item as its own argument",
                        at: location(expression.offset))
                    valid = false
                    continue
                }
                pieces.append(.reference(reference))
            }
        }
        guard valid else { return nil }
        if template.singleExpression != nil, case .reference(let reference) = pieces.first { return .whole(reference) }
        return .interpolated(pieces)
    }

    private mutating func reference(
        _ expression: Expression, allowed: String, key: String, parameters: Schema, output: Schema?,
        location: (Int) -> SourceLocation
    ) -> CommandTemplate.Reference? {
        guard case .member(.name(let root, _), let name, let nameOffset) = expression.node,
            root == "params" || (root == "output" && output != nil)
        else {
            error("'\(key)' can only use \(allowed), not '\(expression.source)'", at: location(expression.offset))
            return nil
        }
        if root == "params" {
            let names = parameters.properties.map(\.name)
            guard names.contains(name) else {
                let suggestion = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                error("'\(key)' refers to unknown parameter '\(name)'\(suggestion)", at: location(nameOffset))
                return nil
            }
            return .parameter(name)
        }
        let fields = output?.properties.map(\.name) ?? []
        guard fields.contains(name) || (fields.isEmpty && output?.additionalProperties != false) else {
            let suggestion = Suggestion.closest(to: name, in: fields).map { "; did you mean '\($0)'?" } ?? ""
            error("'\(key)' refers to output field '\(name)', which the skill does not output\(suggestion)", at: location(nameOffset))
            return nil
        }
        return .output(name)
    }
}
