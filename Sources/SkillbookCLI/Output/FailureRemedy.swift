import SkillbookCore

/// What a person can do about a failure of a kind: the command line's own advice, which the
/// libraries (stating facts only) leave out.
enum FailureRemedy {
    static func text(for kind: FailureKind?) -> String? {
        switch kind {
        case .refused: "pass --yes to approve, or set 'confirm: false' on the step"
        case .disallowedPath: "pass --allow-path DIR to allow another"
        default: nil
        }
    }

    /// A state's message, with how to choose another state directory when it advises one.
    static func explain(_ error: any StateFailure) -> String {
        error.suggestsAnotherState ? "\(error.message) (pass --state DIR)" : error.message
    }

    /// `message` followed by the remedy of `kind`, if it has one.
    static func explain(_ message: String, kind: FailureKind?) -> String {
        guard let remedy = text(for: kind) else { return message }
        return "\(message); \(remedy)"
    }
}
