public import SkillbookCore

/// A change to one parameter of a plan that a lint's message names as the only right one (a
/// reference to the earlier step's same-named field, a regular expression made to match whole
/// lines), or an optional parameter given as an empty text left out: made by `PlanChecker.fixed`
/// before the model is asked to repair its plan.
public struct PlanFix: Sendable, Equatable {
    /// The step's index in the plan.
    public var step: Int
    public var parameter: String
    /// The new value; `nil` leaves the parameter out.
    public var value: Value?

    /// A parameter of one step.
    struct Place: Hashable {
        var step: Int
        var parameter: String
    }

    public init(step: Int, parameter: String, value: Value?) {
        self.step = step
        self.parameter = parameter
        self.value = value
    }
}
