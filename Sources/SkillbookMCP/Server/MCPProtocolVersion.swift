/// The protocol revisions this module speaks: three through the `initialize` handshake
/// (legacy) and the stateless 2026-07-28 (modern, per-request `_meta`).
public struct MCPProtocolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let name: String
    private let order: Int

    private init(_ name: String, _ order: Int) {
        self.name = name
        self.order = order
    }

    public static let v2025_03_26 = MCPProtocolVersion("2025-03-26", 1)
    public static let v2025_06_18 = MCPProtocolVersion("2025-06-18", 2)
    public static let v2025_11_25 = MCPProtocolVersion("2025-11-25", 3)
    public static let v2026_07_28 = MCPProtocolVersion("2026-07-28", 4)

    /// Revisions reached through `initialize`, newest first.
    public static let handshake: [MCPProtocolVersion] = [.v2025_11_25, .v2025_06_18, .v2025_03_26]
    /// Revisions whose requests carry their version and capabilities in `_meta`.
    public static let stateless: [MCPProtocolVersion] = [.v2026_07_28]
    /// Every revision, newest first.
    public static let all = stateless + handshake

    public init?(_ name: String) {
        guard let known = Self.all.first(where: { $0.name == name }) else { return nil }
        self = known
    }

    /// Whether requests of this revision carry `_meta` instead of relying on a handshake.
    public var isStateless: Bool { self >= .v2026_07_28 }

    /// The revision an `initialize` asking for `requested` gets: that one when it is a handshake
    /// revision spoken here, else the newest handshake revision (the client then decides whether
    /// it can speak it).
    public static func negotiate(_ requested: String) -> MCPProtocolVersion {
        handshake.first { $0.name == requested } ?? .v2025_11_25
    }

    public static func < (lhs: MCPProtocolVersion, rhs: MCPProtocolVersion) -> Bool { lhs.order < rhs.order }

    public var description: String { name }
}
