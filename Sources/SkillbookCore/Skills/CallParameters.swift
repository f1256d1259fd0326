import Synchronization

/// A call's parameters as the engine hands them to a skill (`Skill.run(handedOver:context:)`).
///
/// When the engine keeps no copy of them — a query it will neither undo nor call again, whose
/// step's outputs nothing holds any more — they are handed over: `take()` gives the skill the
/// only reference, so a skill that makes a large value out of a large parameter (a template
/// around a 50 MB text) can build it in that value's own storage instead of beside a copy.
/// Otherwise `take()` gives a copy and the engine's stays.
public final class CallParameters: Sendable {
    private let value: Mutex<ValueObject>
    /// Whether the engine let go of them: `take()` leaves the box empty.
    public let isHandedOver: Bool

    public init(_ parameters: ValueObject, handedOver: Bool = false) {
        value = Mutex(parameters)
        isHandedOver = handedOver
    }

    /// The parameters; when handed over, the box keeps nothing after.
    public func take() -> ValueObject {
        value.withLock { held in
            guard isHandedOver else { return held }
            defer { held = ValueObject() }
            return held
        }
    }
}
