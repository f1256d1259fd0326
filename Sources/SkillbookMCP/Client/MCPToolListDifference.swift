/// How the tools a server lists now differ from its cached tool list (what `skillbook doctor`
/// reports as a stale cache): tools it has that the cache lacks, tools the cache has that it no
/// longer lists, and tools listed by both whose title, description, schemas or annotations changed.
/// Tools are compared as the cache writes them.
public struct MCPToolListDifference: Sendable, Equatable {
    /// Names of tools the server lists that the cache does not hold, sorted.
    public var added: [String]
    /// Names of cached tools the server no longer lists, sorted.
    public var removed: [String]
    /// Names of tools in both whose entries differ, sorted.
    public var changed: [String]

    public init(cached: [MCPTool], current: [MCPTool]) {
        let before = Dictionary(cached.map { ($0.name, $0.value(for: .v2025_11_25)) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(current.map { ($0.name, $0.value(for: .v2025_11_25)) }, uniquingKeysWith: { first, _ in first })
        added = now.keys.filter { before[$0] == nil }.sorted()
        removed = before.keys.filter { now[$0] == nil }.sorted()
        changed = now.keys.filter { name in before[name].map { $0 != now[name] } ?? false }.sorted()
    }

    /// The lists are the same.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// `new: a, b; gone: c; changed: d` (the parts that are not empty).
    public var summary: String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("new: " + added.joined(separator: ", ")) }
        if !removed.isEmpty { parts.append("gone: " + removed.joined(separator: ", ")) }
        if !changed.isEmpty { parts.append("changed: " + changed.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
