/// A failure of a state backend (the SQLite state file, the PostgreSQL database), whichever it is:
/// what a front end needs to choose its message and exit status without knowing the backend.
public protocol StateFailure: Error, Sendable, CustomStringConvertible {
    /// The message, naming the store and what to do.
    var message: String { get }
    /// The state cannot be used at all: it cannot be opened or reached, is not a database, is
    /// damaged or read-only, or was migrated by a newer skillbook. Found before anything ran, so
    /// a front end treats it as a usage problem (the CLI exits 2), unlike a failure while working.
    var isUnusableState: Bool { get }
    /// The message ends advising another state (a front end says how to choose one: the CLI's
    /// `--state`).
    var suggestsAnotherState: Bool { get }
}
