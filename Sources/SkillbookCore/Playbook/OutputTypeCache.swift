import Synchronization

/// Each skill's static output type by id, computed on first use: a checker asks for it at every
/// step and at every reference to a step's output.
final class OutputTypeCache: Sendable {
    private let types = Mutex<[String: ExprType]>([:])

    func type(of descriptor: SkillDescriptor) -> ExprType {
        if let known = types.withLock({ $0[descriptor.id] }) { return known }
        let type = ExprType(schema: descriptor.output)
        types.withLock { $0[descriptor.id] = type }
        return type
    }
}
