/// A problem with an expression: a syntax error, a type error found when a playbook loads, or a
/// runtime failure (such as `split` of a number).
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Character offset within the template text where the problem starts (for column math).
    public var offset: Int
    /// The evaluation was stopped, not wrong: it ran past its step limit or its task was cancelled.
    /// `MappedValue` puts the expression's `file:line:column` in front of such a message.
    public var isStop = false

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    init(stop message: String, at offset: Int) {
        self.init(message: message, offset: offset)
        isStop = true
    }

    public init(_ message: String, at offset: Int) {
        self.init(message: message, offset: offset)
    }

    public var description: String { message }
}
