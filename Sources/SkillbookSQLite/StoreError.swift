public import Foundation
public import SkillbookCore
import SkillbookSQL

/// A failure of the state store, with a message that names the database file and what to do.
public struct StoreError: StateFailure, Equatable, LocalizedError {
    public enum Kind: Sendable, Hashable {
        /// The file exists but is not an SQLite database.
        case notADatabase
        /// The file is an SQLite database whose content is damaged.
        case corrupt
        /// The file or its directory cannot be opened or created.
        case cannotOpen
        /// Another connection held the database longer than the busy timeout.
        case busy
        /// The file or its directory is read-only.
        case readOnly
        /// The database was written by a newer version of skillbook.
        case newerSchema
        /// A stored row does not have the shape this version expects.
        case malformedRow
        /// A write conflicts with existing data (a duplicate id, a foreign key).
        case conflict
        /// Anything else SQLite reports.
        case other
    }

    public var kind: Kind
    public var message: String
    /// The database file.
    public var path: String
    /// SQLite's result code (extended when available), if SQLite reported the failure.
    public var code: Int32?

    public init(_ kind: Kind, message: String, path: String, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
        self.code = code
    }

    /// The message ends advising another state directory: a front end says how to choose one (the
    /// CLI: `--state DIR`), which this library does not know.
    public var suggestsAnotherStateDirectory: Bool { message.hasSuffix(Self.anotherStateDirectory) }
    public var suggestsAnotherState: Bool { suggestsAnotherStateDirectory }

    /// Not a folder, not writable, not a database, damaged, newer.
    public var isUnusableState: Bool {
        switch kind {
        case .notADatabase, .corrupt, .cannotOpen, .readOnly, .newerSchema: true
        case .busy, .malformedRow, .conflict, .other: false
        }
    }

    public var description: String { message }
    public var errorDescription: String? { message }

    /// The end of a message that advises another state directory.
    static let anotherStateDirectory = "use another state directory"
    private static let elsewhere = anotherStateDirectory

    /// The error for an SQLite result code, phrased for the person who owns the file.
    static func sqlite(code: Int32, detail: String, path: String, operation: String) -> StoreError {
        let primary = code & 0xff
        let kind: Kind
        let message: String
        switch primary {
        case 26:  // SQLITE_NOTADB
            kind = .notADatabase
            message =
                "state database \(path) is not a valid SQLite database (\(detail)); move it aside or \(elsewhere)"
        case 11:  // SQLITE_CORRUPT
            kind = .corrupt
            message = "state database \(path) is corrupt (\(detail)); move it aside or \(elsewhere)"
        case 14, 3:  // SQLITE_CANTOPEN, SQLITE_PERM
            kind = .cannotOpen
            message =
                "cannot open state database \(path) (\(detail)); check that its directory exists and is writable, "
                + "or \(elsewhere)"
        case 8:  // SQLITE_READONLY
            kind = .readOnly
            message =
                "state database \(path) is read-only (\(detail)); check the permissions of the file and its directory, "
                + "or \(elsewhere)"
        case 5, 6:  // SQLITE_BUSY, SQLITE_LOCKED
            kind = .busy
            message =
                "state database \(path) stayed locked by another process for 5 seconds (\(detail)) while \(operation); "
                + "try again when the other skillbook process has finished"
        case 13:  // SQLITE_FULL
            kind = .other
            message = "cannot write state database \(path): the disk is full (\(detail)); free some space and try again"
        case 19:  // SQLITE_CONSTRAINT
            kind = .conflict
            message = "state database \(path): \(operation) conflicts with existing data (\(detail))"
        default:
            kind = .other
            message = "state database \(path): \(operation) failed (\(detail))"
        }
        return StoreError(kind, message: message, path: path, code: code)
    }
}
