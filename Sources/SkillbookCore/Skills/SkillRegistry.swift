/// The skills a process knows, by id. Registering a duplicate id is an error.
public struct SkillRegistry: Sendable {
    public private(set) var skills: [String: any Skill] = [:]
    /// What to say after "unknown skill 'PREFIX.x'" for a prefix whose skills come from a cached
    /// MCP tool list (when it was listed, how to refresh it), by prefix.
    public var toolListNotes: [String: String] = [:]

    public init() {}

    public init(_ skills: [any Skill]) throws(RegistryError) {
        for skill in skills { try register(skill) }
    }

    public enum RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
        case duplicate(String)
        case invalidID(String)

        public var description: String {
            switch self {
            case .duplicate(let id): "skill '\(id)' is registered twice; skill ids must be unique"
            case .invalidID(let id): "skill id '\(id)' must have the form domain.name (lowercase, digits, '_')"
            }
        }
    }

    public mutating func register(_ skill: any Skill) throws(RegistryError) {
        let id = skill.descriptor.id
        guard SkillDescriptor.isValidID(id) else { throw .invalidID(id) }
        guard skills[id] == nil else { throw .duplicate(id) }
        skills[id] = skill
    }

    public subscript(id: String) -> (any Skill)? { skills[id] }

    /// Every descriptor, sorted by id.
    public var descriptors: [SkillDescriptor] {
        skills.values.map(\.descriptor).sorted { $0.id < $1.id }
    }

    public var ids: [String] { skills.keys.sorted() }
}
