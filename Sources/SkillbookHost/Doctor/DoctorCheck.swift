/// One finding of `skillbook doctor`: what was checked, how it went, what was seen, and — when it
/// is not fine — what to do about it.
public struct DoctorCheck: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable {
        /// Fine.
        case ok
        /// Works, but something a user may want to know or change (nothing fails because of it).
        case warning
        /// Something a command will fail on: `doctor` exits 1.
        case failed
    }

    /// A short stable name (`state`, `model`, `libcurl`): the JSON key tests and scripts read.
    public var name: String
    public var status: Status
    /// What was found, in one line.
    public var detail: String
    /// What to do about it (`nil` when the check is `ok`).
    public var fix: String?

    public init(_ name: String, _ status: Status, _ detail: String, fix: String? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
    }
}
