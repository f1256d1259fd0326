import Foundation

/// Decodes `schedule:` — one entry (a mapping) or a list of them — reporting each problem at its
/// position, prefixed with the entry's path (`schedule.cron: …`, `schedule[1].timezone: …`).
extension YAMLFieldReader {
    static let scheduleKeys = ["cron", "every", "timezone", "catch_up", "catch_up_window", "overlap", "inputs"]

    mutating func schedule(_ node: YAMLNode) -> [ScheduleEntry] {
        if let items = node.sequence {
            if items.isEmpty { error("'schedule' is an empty list; give at least one entry or leave it out", at: node.location) }
            return items.enumerated().compactMap { index, item in scheduleEntry(item, path: "schedule[\(index)]") }
        }
        return scheduleEntry(node, path: "schedule").map { [$0] } ?? []
    }

    private mutating func scheduleEntry(_ node: YAMLNode, path: String) -> ScheduleEntry? {
        guard let pairs = node.mapping else {
            error(
                "\(path): an entry must be a mapping with 'cron' or 'every', not a \(node.kindName) (schedule: { cron: \"30 7 * * 1-5\" })",
                at: node.location)
            return nil
        }
        var trigger: ScheduleEntry.Trigger?
        var triggerLocation: SourceLocation?
        var entry = ScheduleEntry(trigger: .every(seconds: 60), location: node.location, path: path)
        var failed = false
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            let value = pair.value
            switch key {
            case "cron", "every":
                if triggerLocation != nil {
                    error("\(path): give either 'cron' or 'every', not both", at: pair.key.location)
                    failed = true
                    continue
                }
                triggerLocation = value.location
                trigger = key == "cron" ? cron(value, path: "\(path).cron") : every(value, path: "\(path).every")
                if trigger == nil { failed = true }
            case "timezone":
                entry.timezoneLocation = value.location
                entry.timezone = timezone(value, path: "\(path).timezone")
                if entry.timezone == nil { failed = true }
            case "catch_up":
                guard let policy = choice(value, CatchUpPolicy.self, path: "\(path).catch_up") else { failed = true; continue }
                entry.catchUp = policy
            case "overlap":
                guard let policy = choice(value, OverlapPolicy.self, path: "\(path).overlap") else { failed = true; continue }
                entry.overlap = policy
            case "catch_up_window":
                guard let seconds = duration(value, "\(path).catch_up_window") else { failed = true; continue }
                entry.catchUpWindow = seconds
            case "inputs":
                let errorsBefore = diagnostics.count
                entry.inputs = scheduleInputs(value, path: "\(path).inputs")
                if diagnostics.count > errorsBefore { failed = true }
            default:
                let suggestion = Suggestion.closest(to: key, in: Self.scheduleKeys).map { "; did you mean '\($0)'?" } ?? ""
                error("\(path): unknown schedule key '\(key)'\(suggestion)", at: pair.key.location)
                failed = true
            }
        }
        guard let triggerLocation else {
            error("\(path): needs 'cron' (such as \"30 7 * * 1-5\") or 'every' (such as 15m)", at: node.location)
            return nil
        }
        guard let trigger, !failed else { return nil }
        entry.trigger = trigger
        entry.triggerLocation = triggerLocation
        return entry
    }

    private mutating func cron(_ node: YAMLNode, path: String) -> ScheduleEntry.Trigger? {
        guard let text = node.scalar, case .string = node.value else {
            error("\(path): must be text such as \"30 7 * * 1-5\" or @daily", at: node.location)
            return nil
        }
        switch CronParser.parse(text) {
        case .success(let expression): return .cron(expression)
        case .failure(let problems):
            for problem in problems.problems {
                error("\(path): \(problem.message)", at: scalarLocation(node, offset: problem.offset))
            }
            return nil
        }
    }

    /// The position of character `offset` of a one-line scalar; the scalar's start otherwise.
    private func scalarLocation(_ node: YAMLNode, offset: Int) -> SourceLocation {
        guard case .scalar(_, let style) = node.content, node.range.start.line == node.range.end.line else {
            return node.location
        }
        switch style {
        case .plain: return node.location.advanced(by: offset)
        case .singleQuoted, .doubleQuoted: return node.location.advanced(by: offset + 1)
        case .literal, .folded: return node.location
        }
    }

    private mutating func every(_ node: YAMLNode, path: String) -> ScheduleEntry.Trigger? {
        let seconds: Double? =
            switch node.value {
            case .string(let text): DurationText.seconds(text)
            case .int(let number): Double(number)
            case .double(let number): number
            default: nil
            }
        guard let seconds, seconds >= 1 else {
            error("\(path): must be an interval of at least 1s, such as 30s, 15m or 2h", at: node.location)
            return nil
        }
        return .every(seconds: seconds)
    }

    private mutating func timezone(_ node: YAMLNode, path: String) -> String? {
        guard let name = node.scalar, case .string = node.value else {
            error("\(path): must be an IANA zone name such as Europe/Berlin", at: node.location)
            return nil
        }
        guard TimeZone(identifier: name) != nil else {
            let suggestion = Suggestion.timeZone(for: name).map { "; did you mean '\($0)'?" }
            error(
                "\(path): unknown time zone '\(name)'\(suggestion ?? " (an IANA name such as Europe/Berlin)")",
                at: node.location)
            return nil
        }
        return name
    }

    private mutating func choice<Policy: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, _ type: Policy.Type, path: String
    ) -> Policy? where Policy.RawValue == String {
        if let text = node.scalar, let policy = Policy(rawValue: text) { return policy }
        let names = Policy.allCases.map(\.rawValue)
        let suggestion = node.scalar.flatMap { Suggestion.closest(to: $0, in: names) }.map { "; did you mean '\($0)'?" } ?? ""
        error("\(path): must be one of \(names.joined(separator: ", "))\(suggestion)", at: node.location)
        return nil
    }

    private mutating func scheduleInputs(_ node: YAMLNode, path: String) -> [ScheduleInput] {
        guard let pairs = node.mapping else {
            error("\(path): must be a mapping of input names to values", at: node.location)
            return []
        }
        var inputs: [ScheduleInput] = []
        for pair in pairs {
            guard let name = pair.key.scalar else { continue }
            if containsExpression(pair.value) {
                error(
                    "\(path).\(name): a schedule gives literal values; put expressions in the input's default",
                    at: pair.value.location)
                continue
            }
            inputs.append(ScheduleInput(name: name, value: pair.value.value, location: pair.key.location))
        }
        return inputs
    }

    private func containsExpression(_ node: YAMLNode) -> Bool {
        switch node.content {
        case .scalar(let text, _): text.utf8.containsTemplateOpening
        case .sequence(let items): items.contains { containsExpression($0) }
        case .mapping(let pairs): pairs.contains { containsExpression($0.value) }
        }
    }
}
