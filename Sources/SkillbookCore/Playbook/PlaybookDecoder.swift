/// Turns a YAML tree into a `Playbook`, reporting every structural problem with its position.
///
/// Keys are checked strictly: an unknown key is an error with a "did you mean" suggestion (a
/// top-level key starting with `x-` is not read: it holds values shared through YAML anchors), and
/// keys of later versions of the format are refused as "not supported yet", never ignored.
public struct PlaybookDecoder: Sendable {
    public static let playbookKeys = [
        "name", "description", "triggers", "inputs", "env", "secrets", "schedule", "on_failure", "on_worker_loss", "on_interrupted", "timeout",
        "approval", "retention", "steps", "outputs", "notify",
    ]
    public static let stepKeys = [
        "id", "skill", "playbook", "with", "when", "foreach", "concurrency", "batch", "retry", "timeout", "confirm",
        "approval", "on_failure", "rollback",
    ]
    /// Keys the format reserves for features this version does not have yet.
    public static let unsupportedPlaybookKeys: Set<String> = []
    public static let unsupportedStepKeys: Set<String> = []
    /// Keys a rollback step may have.
    public static let rollbackStepKeys: Set<String> = ["id", "skill", "with", "when", "retry", "timeout"]

    public init() {}

    public func decode(_ root: YAMLNode?, file: String, diagnostics: inout [Diagnostic]) -> Playbook? {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let root else {
            diagnostics.append(.error("the playbook is empty; it needs at least 'name' and 'steps'", at: start))
            return nil
        }
        guard let pairs = root.mapping else {
            diagnostics.append(
                .error("a playbook must be a mapping with 'name' and 'steps', not a \(root.kindName)", at: root.location))
            return nil
        }
        var context = YAMLFieldReader(diagnostics: diagnostics)
        defer { diagnostics = context.diagnostics }

        var playbook = Playbook(name: "", steps: [], file: file)
        var sawName = false
        var sawSteps = false
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            let value = pair.value
            switch key {
            case "name":
                sawName = true
                if let name = context.string(value, "name") {
                    playbook.name = name
                    playbook.nameLocation = value.location
                    if !Self.isValidPlaybookName(name) {
                        context.error(
                            "playbook name '\(name)' must be lowercase letters, digits and '-', starting with a letter",
                            at: value.location)
                    }
                }
            case "description": playbook.description = context.string(value, "description") ?? ""
            case "triggers": playbook.triggers = context.stringList(value, "triggers")
            case "env":
                playbook.env = context.stringList(value, "env")
            case "inputs": playbook.inputs = decodeInputs(value, &context)
            case "secrets": playbook.secrets = decodeSecretNames(value, &context)
            case "schedule": playbook.schedule = context.schedule(value)
            case "on_failure": playbook.onFailure = context.failurePolicy(value) ?? .rollback
            case "on_worker_loss": playbook.onWorkerLoss = context.workerLossPolicy(value) ?? .wait
            case "on_interrupted": playbook.onInterrupted = context.interruptedPolicy(value) ?? .leave
            case "notify": playbook.notify = decodeNotify(value, &context)
            case "timeout": playbook.timeout = context.duration(value, "timeout")
            case "approval": playbook.approvalTimeout = context.approval(value)
            case "retention": playbook.retention = context.retention(value)
            case "steps":
                sawSteps = true
                playbook.steps = decodeSteps(value, &context)
            case "outputs":
                guard let outputPairs = value.mapping else {
                    context.error("'outputs' must be a mapping of names to values", at: value.location)
                    continue
                }
                for output in outputPairs {
                    guard let name = output.key.scalar else { continue }
                    playbook.outputs.append(OutputMapping(name: name, value: context.mapped(output.value)))
                }
            case _ where key.hasPrefix("x-"):
                // An extension key, as Compose has: a place for shared values (`x-common: &common …`)
                // that steps use by alias; it is not read.
                continue
            default:
                context.unknownKey(pair.key, key, in: "playbook", known: Self.playbookKeys, unsupported: Self.unsupportedPlaybookKeys)
            }
        }
        if !sawName { context.error("the playbook is missing 'name'", at: root.location) }
        if !sawSteps { context.error("the playbook is missing 'steps'", at: root.location) }
        return playbook
    }

    public static func isValidPlaybookName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLowercase else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// Step ids and input names: usable in expressions (`steps.fetch_all.output`).
    public static func isValidIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    private func decodeInputs(_ node: YAMLNode, _ context: inout YAMLFieldReader) -> [PlaybookInput] {
        guard let pairs = node.mapping else {
            context.error("'inputs' must be a mapping of input names to schemas", at: node.location)
            return []
        }
        var inputs: [PlaybookInput] = []
        for pair in pairs {
            guard let name = pair.key.scalar else { continue }
            if !Self.isValidIdentifier(name) {
                context.error(
                    "input name '\(name)' must start with a letter and use only letters, digits and '_'",
                    at: pair.key.location)
            }
            var defaultExpression: MappedValue?
            var defaultSource: MappedValue?
            var schemaNode = pair.value
            // A default that is an expression, or a relative date (`tomorrow 9am`), is evaluated
            // per run, not stored in the schema.
            if let defaultNode = pair.value["default"] {
                let mapped = context.mapped(defaultNode)
                defaultSource = mapped
                let format = pair.value["format"]?.scalar
                let relative =
                    mapped.literalValue.map { RelativeDateLiterals.isRelative($0, schema: Schema(type: .string, format: format)) }
                    ?? false
                if mapped.literalValue == nil || relative {
                    defaultExpression = mapped
                    if case .mapping(let members) = schemaNode.content {
                        schemaNode.content = .mapping(members.filter { $0.key.scalar != "default" })
                    }
                }
            }
            guard let schema = SchemaDecoder().decode(schemaNode, diagnostics: &context.diagnostics) else { continue }
            var input = PlaybookInput(name: name, schema: schema, defaultExpression: defaultExpression, location: pair.key.location)
            input.defaultSource = defaultSource
            inputs.append(input)
        }
        return inputs
    }

    /// `notify:` of a playbook or of `skillbook.yaml` (`file` names it in diagnostics).
    public func decodeNotify(_ node: YAMLNode, diagnostics: inout [Diagnostic]) -> [NotifyRule] {
        var context = YAMLFieldReader(diagnostics: diagnostics)
        defer { diagnostics = context.diagnostics }
        return decodeNotify(node, &context)
    }

    /// Each event maps to a step or a list of steps (`id` optional: `<event>_<n>`).
    private func decodeNotify(_ node: YAMLNode, _ context: inout YAMLFieldReader) -> [NotifyRule] {
        let names = NotifyEvent.allCases.map(\.rawValue)
        guard let pairs = node.mapping else {
            context.error(
                "'notify' must be a mapping of events (\(names.joined(separator: ", "))) to steps, not a \(node.kindName)",
                at: node.location)
            return []
        }
        var rules: [NotifyRule] = []
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            guard let event = NotifyEvent(rawValue: key) else {
                let suggestion = Suggestion.closest(to: key, in: names).map { "; did you mean '\($0)'?" } ?? ""
                context.error("unknown notify event '\(key)'\(suggestion) (events: \(names.joined(separator: ", ")))", at: pair.key.location)
                continue
            }
            if rules.contains(where: { $0.event == event }) {
                context.error("notify event '\(key)' is mapped twice", at: pair.key.location)
                continue
            }
            let items = pair.value.sequence ?? [pair.value]
            if items.isEmpty {
                context.error("notify event '\(key)' needs at least one step (a skill call or a playbook)", at: pair.value.location)
                continue
            }
            let steps = items.enumerated().compactMap { index, item -> PlaybookStep? in
                guard var step = decodeStep(item, number: index + 1, defaultID: "\(key)_\(index + 1)", &context) else { return nil }
                // Nobody is there to confirm a notification: writing it here is the confirmation.
                if step.confirm == nil { step.confirm = false }
                return step
            }
            rules.append(NotifyRule(event: event, steps: steps, location: pair.key.location))
        }
        return rules
    }

    private func decodeSteps(_ node: YAMLNode, _ context: inout YAMLFieldReader) -> [PlaybookStep] {
        guard let items = node.sequence else {
            context.error("'steps' must be a list of steps", at: node.location)
            return []
        }
        if items.isEmpty { context.error("'steps' is empty; a playbook needs at least one step", at: node.location) }
        return items.enumerated().compactMap { index, item in decodeStep(item, number: index + 1, &context) }
    }

    private func decodeRollback(_ node: YAMLNode, owner: String, _ context: inout YAMLFieldReader) -> [PlaybookStep] {
        guard let items = node.sequence, !items.isEmpty else {
            context.error("'rollback' must be a non-empty list of steps that undo step '\(owner)'", at: node.location)
            return []
        }
        return items.enumerated().compactMap { index, item in
            decodeStep(item, number: index + 1, rollbackOf: owner, &context)
        }
    }

    private func decodeStep(
        _ node: YAMLNode, number: Int, rollbackOf owner: String? = nil, defaultID: String? = nil,
        _ context: inout YAMLFieldReader
    ) -> PlaybookStep? {
        guard let pairs = node.mapping else {
            context.error("step \(number) must be a mapping with 'id' and 'skill', not a \(node.kindName)", at: node.location)
            return nil
        }
        var step = PlaybookStep(
            id: owner.map { "\($0)_rollback_\(number)" } ?? defaultID ?? "", skill: "", location: node.location)
        var sawID = owner != nil || defaultID != nil
        var sawSkill = false
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            let value = pair.value
            if owner != nil, Self.stepKeys.contains(key), !Self.rollbackStepKeys.contains(key) {
                context.error("'\(key)' cannot be used in a rollback step", at: pair.key.location)
                continue
            }
            switch key {
            case "id":
                sawID = true
                if let id = context.string(value, "id") {
                    step.id = id
                    if !Self.isValidIdentifier(id) {
                        context.error(
                            "step id '\(id)' must start with a letter and use only letters, digits and '_'",
                            at: value.location)
                    }
                }
            case "skill":
                sawSkill = true
                step.skill = context.string(value, "skill") ?? ""
                step.skillLocation = value.location
            case "playbook":
                sawSkill = true
                step.playbook = context.string(value, "playbook") ?? ""
                step.skillLocation = value.location
            case "foreach": step.foreach = context.mapped(value)
            case "concurrency": step.concurrency = context.positiveInteger(value, "concurrency", limit: 64) ?? 1
            case "batch": step.batch = context.batch(value)
            case "rollback": step.rollback = decodeRollback(value, owner: step.id.isEmpty ? "step \(number)" : step.id, &context)
            case "with":
                step.withLocation = pair.key.location
                guard let members = value.mapping else {
                    if value.scalar != nil, value.value == .null { continue }
                    context.error("'with' must be a mapping of parameter names to values", at: value.location)
                    continue
                }
                for member in members {
                    guard let name = member.key.scalar else { continue }
                    step.with.append(
                        ParameterMapping(name: name, value: context.mapped(member.value), keyLocation: member.key.location))
                }
            case "when": step.when = context.mapped(value)
            case "retry": step.retry = context.retry(value)
            case "timeout": step.timeout = context.duration(value, "timeout")
            case "approval": step.approvalTimeout = context.approval(value)
            case "on_failure": step.onFailure = context.failurePolicy(value)
            case "confirm":
                step.confirm = context.bool(value, "confirm")
            default:
                context.unknownKey(pair.key, key, in: "step", known: Self.stepKeys, unsupported: Self.unsupportedStepKeys)
            }
        }
        let name = step.id.isEmpty ? "step \(number)" : "step '\(step.id)'"
        if !sawID { context.error("step \(number) is missing 'id'", at: node.location) }
        if !sawSkill { context.error("\(name) is missing 'skill' (the skill it calls)", at: node.location) }
        if !step.skill.isEmpty, step.playbook != nil {
            context.error("\(name) has both 'skill' and 'playbook'; a step calls one of them", at: step.skillLocation)
        }
        if node["concurrency"] != nil, step.foreach == nil {
            context.error("\(name) has 'concurrency' without 'foreach'; batches use batch.concurrency", at: node["concurrency"]!.location)
        }
        if step.playbook != nil, step.foreach != nil || step.batch != nil {
            context.error("\(name) runs a playbook; 'foreach' and 'batch' apply to skill steps only", at: step.skillLocation)
        }
        return step
    }
}

/// The playbook's own fields.
extension YAMLFieldReader {
    /// `approval: { timeout: 4h }`: how long a request for approval waits; the timeout, or `nil`
    /// (reported) when it is missing or not a positive duration.
    mutating func approval(_ node: YAMLNode) -> Double? {
        guard let pairs = node.mapping else {
            error("'approval' must be a mapping such as { timeout: 4h }", at: node.location)
            return nil
        }
        var timeout: Double?
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            guard key == "timeout" else {
                unknownKey(pair.key, key, in: "approval", known: ["timeout"])
                continue
            }
            let seconds: Double? =
                switch pair.value.value {
                case .int(let whole): Double(whole)
                case .double(let number): number
                case .string(let text): DurationText.seconds(text)
                default: nil
                }
            guard let seconds, seconds > 0, seconds.isFinite else {
                error(
                    "'approval.timeout' must be a positive duration such as 30m, 4h or 2d (a request that expires at once "
                        + "could never be approved)", at: pair.value.location)
                continue
            }
            timeout = seconds
        }
        return timeout
    }

    mutating func failurePolicy(_ node: YAMLNode) -> FailurePolicy? {
        guard let text = node.scalar, let policy = FailurePolicy(rawValue: text) else {
            let names = FailurePolicy.allCases.map(\.rawValue)
            let suggestion = node.scalar.flatMap { Suggestion.closest(to: $0, in: names) }.map { "; did you mean '\($0)'?" } ?? ""
            error("'on_failure' must be one of \(names.joined(separator: ", "))\(suggestion)", at: node.location)
            return nil
        }
        return policy
    }

    mutating func workerLossPolicy(_ node: YAMLNode) -> WorkerLossPolicy? {
        guard let text = node.scalar, let policy = WorkerLossPolicy(rawValue: text) else {
            let names = WorkerLossPolicy.allCases.map(\.rawValue)
            let suggestion = node.scalar.flatMap { Suggestion.closest(to: $0, in: names) }.map { "; did you mean '\($0)'?" } ?? ""
            error("'on_worker_loss' must be one of \(names.joined(separator: ", "))\(suggestion)", at: node.location)
            return nil
        }
        return policy
    }

    mutating func interruptedPolicy(_ node: YAMLNode) -> InterruptedPolicy? {
        guard let text = node.scalar, let policy = InterruptedPolicy(rawValue: text) else {
            let names = InterruptedPolicy.allCases.map(\.rawValue)
            let suggestion = node.scalar.flatMap { Suggestion.closest(to: $0, in: names) }.map { "; did you mean '\($0)'?" } ?? ""
            error("'on_interrupted' must be one of \(names.joined(separator: ", "))\(suggestion)", at: node.location)
            return nil
        }
        return policy
    }

    mutating func batch(_ node: YAMLNode) -> BatchPolicy? {
        guard let pairs = node.mapping else {
            error("'batch' must be a mapping with any of 'size', 'concurrency', 'pause', 'over'", at: node.location)
            return nil
        }
        var policy = BatchPolicy(location: node.location)
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            switch key {
            case "size": policy.size = positiveInteger(pair.value, "size", limit: 1_000_000)
            case "concurrency": policy.concurrency = positiveInteger(pair.value, "concurrency", limit: 64) ?? 1
            case "pause":
                if case .int(0) = pair.value.value { continue }
                policy.pause = duration(pair.value, "pause") ?? 0
            case "over": policy.over = string(pair.value, "over")
            default:
                let known = ["size", "concurrency", "pause", "over"]
                let suggestion = Suggestion.closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
                error("unknown batch key '\(key)'\(suggestion)", at: pair.key.location)
            }
        }
        return policy
    }

    mutating func retry(_ node: YAMLNode) -> RetryPolicy {
        if case .int(let attempts) = node.value {
            guard (1...100).contains(attempts) else {
                error("'retry' attempts must be between 1 and 100", at: node.location)
                return .none
            }
            return RetryPolicy(attempts: attempts)
        }
        guard let pairs = node.mapping else {
            error("'retry' must be a number of attempts or a mapping with 'attempts', 'backoff' and 'delay'", at: node.location)
            return .none
        }
        var policy = RetryPolicy(attempts: 1)
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            switch key {
            case "attempts":
                guard case .int(let attempts) = pair.value.value, (1...100).contains(attempts) else {
                    error("'attempts' must be a whole number between 1 and 100", at: pair.value.location)
                    continue
                }
                policy.attempts = attempts
            case "backoff":
                guard let text = pair.value.scalar, let backoff = RetryPolicy.Backoff(rawValue: text) else {
                    error("'backoff' must be fixed or exponential", at: pair.value.location)
                    continue
                }
                policy.backoff = backoff
            case "delay":
                if case .int(0) = pair.value.value {
                    policy.delay = 0
                } else {
                    policy.delay = duration(pair.value, "delay") ?? policy.delay
                }
            default:
                let known = ["attempts", "backoff", "delay"]
                let suggestion = Suggestion.closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
                error("unknown retry key '\(key)'\(suggestion)", at: pair.key.location)
            }
        }
        return policy
    }

    /// A value that may hold expressions; syntax errors in them are reported here.
    mutating func mapped(_ node: YAMLNode) -> MappedValue {
        switch node.content {
        case .scalar(let text, let style):
            let textStart: SourceLocation? =
                switch style {
                case _ where node.range.start.line != node.range.end.line: nil
                case .plain: node.range.start
                case .singleQuoted, .doubleQuoted: node.range.start.advanced(by: 1)
                case .literal, .folded: nil
                }
            // Over bytes: `String.contains(String)` searched by characters, ~10 k instructions a scalar.
            guard text.utf8.containsTemplateOpening, case .string = node.value else {
                return MappedValue(.literal(node.value), range: node.range, textStart: textStart, source: node)
            }
            let holder = MappedValue(.literal(node.value), range: node.range, textStart: textStart, source: node)
            do {
                let template = try TemplateString.parse(text)
                return MappedValue(.template(template), range: node.range, textStart: textStart)
            } catch {
                self.error(error.message, at: holder.location(ofOffset: error.offset))
                return holder
            }
        // A literal collection's value is built from its members' values, not by resolving the
        // whole subtree again (`node.value`) at every level it is nested in.
        case .sequence(let items):
            let mappedItems = items.map { mapped($0) }
            let literals = mappedItems.compactMap(\.literalValue)
            if literals.count == mappedItems.count {
                return MappedValue(.literal(.array(literals)), range: node.range, source: node)
            }
            return MappedValue(.array(mappedItems), range: node.range)
        case .mapping(let pairs):
            var members: [(key: String, value: MappedValue)] = []
            var allKeysScalar = true
            for pair in pairs {
                guard let key = pair.key.scalar else {
                    allKeysScalar = false
                    continue
                }
                members.append((key, mapped(pair.value)))
            }
            if members.allSatisfy({ $0.value.literalValue != nil }) {
                // As `node.value`: the first of a repeated key wins; a key that is no scalar is
                // left to `node.value`, which turns it into text.
                guard allKeysScalar else { return MappedValue(.literal(node.value), range: node.range, source: node) }
                var object = ValueObject()
                for member in members where object[member.key] == nil { object[member.key] = member.value.literalValue }
                return MappedValue(.literal(.object(object)), range: node.range, source: node)
            }
            return MappedValue(.object(members), range: node.range)
        }
    }
}
