/// One name of a playbook's `secrets:` list: a secret of the workspace's `secrets:` that the
/// playbook reads, where it is written.
public struct DeclaredSecret: Sendable, Hashable {
    public var name: String
    public var location: SourceLocation

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

extension PlaybookDecoder {
    /// `secrets: [api, smtp]`: names only (a provider belongs in `skillbook.yaml`), each once.
    func decodeSecretNames(_ node: YAMLNode, _ context: inout YAMLFieldReader) -> [DeclaredSecret] {
        guard let items = node.sequence else {
            let hint = node.mapping != nil ? "; providers ({ env: … }) belong under 'secrets:' in skillbook.yaml" : ""
            context.error("'secrets' must be a list of secret names\(hint)", at: node.location)
            return []
        }
        var names: [DeclaredSecret] = []
        for item in items {
            guard let text = item.scalar, case .string = item.value else {
                let got = item.scalar == nil ? "a \(item.kindName)" : item.value.typeName
                let hint = item.mapping != nil ? "; providers belong under 'secrets:' in skillbook.yaml" : ""
                context.error("each entry of 'secrets' must be a secret's name, not \(got)\(hint)", at: item.location)
                continue
            }
            if let first = names.first(where: { $0.name == text }) {
                context.error("secret '\(text)' is listed twice (first at line \(first.location.line))", at: item.location)
                continue
            }
            names.append(DeclaredSecret(name: text, location: item.location))
        }
        return names
    }
}
