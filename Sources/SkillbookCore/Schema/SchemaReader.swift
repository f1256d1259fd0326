import Foundation

/// One decoding of a schema document: reads each subschema once (by its JSON pointer), resolves
/// `$ref` against the document, and collects diagnostics.
final class SchemaReader {
    let root: YAMLNode
    private(set) var diagnostics: [Diagnostic] = []
    /// Subschemas already read, by canonical JSON pointer (`#/$defs/address`).
    private var done: [String: Schema] = [:]
    /// Pointers being read, outermost first: a `$ref` to one of them is a cycle.
    private var reading: [String] = []

    init(root: YAMLNode) {
        self.root = root
    }

    func error(_ message: String, at node: YAMLNode?) {
        diagnostics.append(.error(message, at: node?.location))
    }

    /// The subschema `node`, found at `pointer` of the document.
    func schema(_ node: YAMLNode, at pointer: String) -> Schema {
        if let known = done[pointer] { return known }
        reading.append(pointer)
        let schema = SchemaKeywordReader(reader: self, node: node, pointer: pointer).read()
        reading.removeLast()
        done[pointer] = schema
        return schema
    }

    /// The schema `$ref` names, read now if it was not yet; `nil` (with an error) when the
    /// reference is remote, points to nothing, or leads back to a schema being read.
    func target(of reference: String, at node: YAMLNode) -> Schema? {
        guard reference.hasPrefix("#") else {
            error(
                "'$ref' '\(reference)' is not local; only references inside the same schema ('#/$defs/NAME') are supported",
                at: node)
            return nil
        }
        guard let tokens = Self.tokens(of: reference) else {
            error("'$ref' '\(reference)' is not a JSON pointer such as '#/$defs/NAME' (anchors are not supported)", at: node)
            return nil
        }
        let pointer = Self.pointer(tokens)
        if let start = reading.firstIndex(of: pointer) {
            let chain = (reading[start...] + [pointer]).joined(separator: " → ")
            error("'$ref' '\(reference)' leads back to itself (\(chain)); recursive schemas are not supported", at: node)
            return nil
        }
        var target = root
        for (depth, token) in tokens.enumerated() {
            let next: YAMLNode?
            switch target.content {
            case .mapping: next = target[token]
            case .sequence(let items): next = Int(token).flatMap { items.indices.contains($0) ? items[$0] : nil }
            case .scalar: next = nil
            }
            guard let next else {
                let names = target.mapping?.compactMap(\.key.scalar) ?? []
                let prefix = Self.pointer(Array(tokens[..<depth]))
                let hint = Suggestion.hint(for: token, in: names).map { "; \($0)" } ?? ""
                error("'$ref' '\(reference)' points to nothing: \(prefix) has no '\(token)'\(hint)", at: node)
                return nil
            }
            target = next
        }
        return schema(target, at: pointer)
    }

    /// The unescaped tokens of a `#/a/b` fragment (percent-decoding, then `~1` → `/`, `~0` → `~`).
    static func tokens(of reference: String) -> [String]? {
        guard let fragment = String(reference.dropFirst()).removingPercentEncoding else { return nil }
        if fragment.isEmpty { return [] }
        guard fragment.hasPrefix("/") else { return nil }
        return fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { token in
            guard token.contains("~") else { return String(token) }
            return token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The canonical pointer for tokens: `#`, `#/$defs/a~1b`. Written out by hand: it is made for
    /// every property of every schema read, and Foundation's `replacingOccurrences` goes through
    /// `NSString` (its first call cost a scan of the binary's conformance records).
    static func pointer(_ tokens: [String]) -> String {
        var pointer = "#"
        for token in tokens {
            pointer.append("/")
            for scalar in token.unicodeScalars {
                switch scalar {
                case "~": pointer.append("~0")
                case "/": pointer.append("~1")
                default: pointer.unicodeScalars.append(scalar)
                }
            }
        }
        return pointer
    }
}
