public import SkillbookCore

/// A model's answer, read: steps to run, or a question for the person.
public enum ModelAnswer: Sendable, Equatable {
    case plan(Plan)
    case question(String)
}

/// Steps a model planned, before checking.
public struct Plan: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var id: String
        /// The skill id, or the playbook name when `isPlaybook`.
        public var target: String
        public var isPlaybook: Bool
        public var with: ValueObject

        public init(id: String, target: String, isPlaybook: Bool = false, with: ValueObject = [:]) {
            self.id = id
            self.target = target
            self.isPlaybook = isPlaybook
            self.with = with
        }
    }

    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps
    }

    /// The steps as `--json` prints them: `[{"id", "skill"|"playbook", "with"}…]`.
    public var json: [Value] {
        steps.map { step in
            .object(["id": .string(step.id), step.isPlaybook ? "playbook" : "skill": .string(step.target), "with": .object(step.with)])
        }
    }
}
