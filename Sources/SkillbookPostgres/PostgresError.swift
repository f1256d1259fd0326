public import Foundation
public import SkillbookCore

/// A failure of the PostgreSQL state: the server's SQLSTATE and message when the server reported
/// it, and the database (its connection string without password) in every message.
public struct PostgresError: StateFailure, Equatable, LocalizedError {
    public enum Kind: Sendable, Hashable {
        /// The server cannot be reached or refused the connection.
        case connection
        /// The server rejected a statement (see `sqlState`).
        case server
        /// A write conflicts with existing data (unique or foreign key: SQLSTATE class 23).
        case conflict
        /// A stored row does not have the shape this version expects.
        case malformedRow
        /// The database was migrated by a newer version of skillbook.
        case newerSchema
    }

    public var kind: Kind
    public var message: String
    /// The five-character SQLSTATE the server sent (`23505`), when it sent one.
    public var sqlState: String?
    /// The server's own message (primary text), when it sent one.
    public var serverMessage: String?

    public init(_ kind: Kind, message: String, sqlState: String? = nil, serverMessage: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.serverMessage = serverMessage
    }

    /// Cannot be reached or refused the connection, or migrated by a newer skillbook.
    public var isUnusableState: Bool {
        switch kind {
        case .connection, .newerSchema: true
        case .server, .conflict, .malformedRow: false
        }
    }

    /// The messages name the database and what is wrong with it, never another state to use.
    public var suggestsAnotherState: Bool { false }

    public var description: String { message }
    public var errorDescription: String? { message }

    /// The error for a statement the server rejected.
    static func server(_ state: String?, _ text: String, location: PostgresURL, doing operation: String) -> PostgresError {
        let detail = location.scrub(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let kind: Kind = state?.hasPrefix("23") == true ? .conflict : .server
        let code = state.map { " [SQLSTATE \($0)]" } ?? ""
        return PostgresError(
            kind, message: "state database \(location): \(operation) failed: \(detail)\(code)", sqlState: state,
            serverMessage: detail)
    }
}
