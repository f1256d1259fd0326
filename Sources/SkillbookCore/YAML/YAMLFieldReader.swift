/// Reads typed fields out of YAML nodes, collecting one diagnostic (with its position) for each
/// field of the wrong shape, so a decoder reports every problem in one pass. Playbooks and skill
/// manifests extend it with their own fields.
public struct YAMLFieldReader: Sendable {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic] = []) {
        self.diagnostics = diagnostics
    }

    public mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    /// An unknown key, with a "did you mean" when one is close; keys of later versions say so.
    public mutating func unknownKey(
        _ keyNode: YAMLNode, _ key: String, in owner: String, known: [String], unsupported: Set<String> = []
    ) {
        if unsupported.contains(key) {
            error("'\(key)' is not supported yet by this version of skillbook", at: keyNode.location)
            return
        }
        let suggestion = Suggestion.closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
        error("unknown \(owner) key '\(key)'\(suggestion)", at: keyNode.location)
    }

    public mutating func string(_ node: YAMLNode, _ key: String) -> String? {
        guard let text = node.scalar, case .string = node.value else {
            error("'\(key)' must be text, not \(node.scalar == nil ? "a \(node.kindName)" : node.value.typeName)", at: node.location)
            return nil
        }
        return text
    }

    public mutating func stringList(_ node: YAMLNode, _ key: String) -> [String] {
        guard let items = node.sequence else {
            error("'\(key)' must be a list of text", at: node.location)
            return []
        }
        return items.compactMap { item in
            guard let text = item.scalar, case .string = item.value else {
                let got = item.scalar == nil ? "a \(item.kindName)" : item.value.typeName
                error("each entry of '\(key)' must be text, not \(got)", at: item.location)
                return nil
            }
            return text
        }
    }

    public mutating func bool(_ node: YAMLNode, _ key: String) -> Bool? {
        guard case .bool(let value) = node.value, node.scalar != nil else {
            error("'\(key)' must be true or false", at: node.location)
            return nil
        }
        return value
    }

    /// Seconds: a number, or text such as `30s`, `5m`, `1h`.
    public mutating func duration(_ node: YAMLNode, _ key: String) -> Double? {
        let seconds: Double? =
            switch node.value {
            case .int(let i): Double(i)
            case .double(let d): d
            case .string(let text): DurationText.seconds(text)
            default: nil
            }
        guard let seconds, seconds > 0, seconds.isFinite else {
            error("'\(key)' must be a positive duration such as 30, 30s, 5m or 1h", at: node.location)
            return nil
        }
        return seconds
    }

    public mutating func positiveInteger(_ node: YAMLNode, _ key: String, limit: Int) -> Int? {
        guard case .int(let number) = node.value, (1...limit).contains(number) else {
            error("'\(key)' must be a whole number between 1 and \(limit)", at: node.location)
            return nil
        }
        return number
    }
}
