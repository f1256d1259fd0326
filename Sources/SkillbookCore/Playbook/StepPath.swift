/// Where a step is in a run: its id, preceded by the ids of the sub-playbook steps that run it.
///
/// The text form joins the components with `/` (`parent/child`): it is what the journal stores
/// and what people read. Step ids cannot contain `/`, so `StepPath(parsing: path.description)`
/// gives `path` back.
public struct StepPath: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Outermost first; never empty for a real step.
    public let components: [String]

    public init(_ components: [String]) {
        self.components = components
    }

    /// A step of the playbook itself (not inside a sub-playbook).
    public init(step id: String) {
        components = [id]
    }

    /// Reads the text form (`parent/child`).
    public init(parsing text: String) {
        components = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    public init(stringLiteral text: String) {
        self.init(parsing: text)
    }

    public var description: String { components.joined(separator: "/") }

    /// The step's own id.
    public var id: String { components.last ?? "" }

    /// How deep inside sub-playbooks the step is: 0 for the playbook's own steps.
    public var depth: Int { max(0, components.count - 1) }

    /// The sub-playbook step that runs this one, if any.
    public var parent: StepPath? {
        components.count > 1 ? StepPath(Array(components.dropLast())) : nil
    }

    /// Every sub-playbook step around this one, innermost first.
    public var ancestors: [StepPath] {
        var result: [StepPath] = []
        var current = parent
        while let path = current {
            result.append(path)
            current = path.parent
        }
        return result
    }

    /// The top-level step this one is part of.
    public var root: String { components.first ?? "" }

    /// A step of the sub-playbook this step runs.
    public func appending(_ id: String) -> StepPath {
        StepPath(components + [id])
    }

    /// Whether `self` is `other` or a step inside it.
    public func isWithin(_ other: StepPath) -> Bool {
        components.count >= other.components.count && Array(components.prefix(other.components.count)) == other.components
    }

    public static func < (lhs: StepPath, rhs: StepPath) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components)
    }
}

/// What a step runs: a skill, or a sub-playbook.
///
/// The text form is the skill id, or `playbook:NAME` for a sub-playbook (what the journal stores
/// in a step's `skill`); `StepTarget(parsing: target.description)` gives `target` back.
public enum StepTarget: Sendable, Hashable, CustomStringConvertible {
    case skill(String)
    case playbook(String)

    static let playbookPrefix = "playbook:"

    public init(parsing text: String) {
        if text.hasPrefix(Self.playbookPrefix) {
            self = .playbook(String(text.dropFirst(Self.playbookPrefix.count)))
        } else {
            self = .skill(text)
        }
    }

    public var description: String {
        switch self {
        case .skill(let id): id
        case .playbook(let name): Self.playbookPrefix + name
        }
    }

    /// The skill id, when the step runs a skill.
    public var skill: String? {
        if case .skill(let id) = self { return id }
        return nil
    }
}

extension PlaybookStep {
    /// What the step runs.
    public var target: StepTarget {
        playbook.map(StepTarget.playbook) ?? .skill(skill)
    }
}
