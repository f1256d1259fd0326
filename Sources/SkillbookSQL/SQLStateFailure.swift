public import Foundation
public import SkillbookCore

/// What the errors of the SQL backends share. Their kinds stay apart, since each names what its
/// own database can report (SQLite's result codes, a server's SQLSTATE and its connection), and
/// so do the phrasings of those; the message is the description, and a row that does not have the
/// shape this version expects is reported alike.
public protocol SQLStateFailure: StateFailure, LocalizedError {
    /// The backend's error of kind "malformed row" with this message; `location` names the database.
    static func malformedRow(message: String, location: String) -> Self
}

extension SQLStateFailure {
    public var description: String { message }
    public var errorDescription: String? { message }

    /// A malformed row of the journal: `what` (a run, a call…) of run `runID`, in `location`.
    public static func malformed(_ what: String, of runID: String?, in location: String) -> Self {
        malformedRow(
            message: "state database \(location) has a malformed \(what)\(runID.map { " of run \($0)" } ?? "") "
                + "(a column is missing or of the wrong type); it was probably edited by hand", location: location)
    }
}
