import Foundation

/// A `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?key=value&…]` connection string, as
/// `--state` and `SKILLBOOK_STATE` take it (`postgres://` too).
///
/// The password never leaves this value except to libpq: `description` and `redacted` show the
/// string with `***` in its place, and every message of this module uses them.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The string as given, for libpq only.
    let connectionString: String
    public let user: String?
    public let host: String?
    public let port: Int?
    public let database: String?

    /// Whether `text` is meant as a connection string rather than a state directory.
    public static func looksLikeURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// `nil` when `text` is not a `postgresql://` or `postgres://` URL with a host.
    public init?(_ text: String) {
        guard Self.looksLikeURL(text), let components = URLComponents(string: text) else { return nil }
        connectionString = text
        user = components.user.flatMap { $0.removingPercentEncoding ?? $0 }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 }
        port = components.port
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
    }

    /// The connection string with its password (and any `password=` parameter) as `***`.
    public var redacted: String {
        guard var components = URLComponents(string: connectionString) else { return "postgresql://***" }
        if components.password != nil { components.password = "***" }
        components.queryItems = components.queryItems.map { items in
            items.map { $0.name.lowercased() == "password" ? URLQueryItem(name: $0.name, value: "***") : $0 }
        }
        return components.string ?? "postgresql://***"
    }

    public var description: String { redacted }

    /// `text` (not a valid URL) with whatever sits where a password would (`user:PASSWORD@`) as `***`.
    public static func redactedGuess(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }

    /// The same server and credentials, another database (for a harness that creates one).
    public func with(database name: String) -> PostgresURL {
        var components = URLComponents(string: connectionString) ?? URLComponents()
        components.path = "/" + name
        return PostgresURL(components.string ?? connectionString) ?? self
    }

    /// Removes the password of `url` from `text` (libpq's messages do not carry it, but a
    /// message that quotes the connection string would).
    func scrub(_ text: String) -> String {
        guard let password = URLComponents(string: connectionString)?.password, !password.isEmpty else { return text }
        return text.replacingOccurrences(of: password, with: "***")
    }
}
