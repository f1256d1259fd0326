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

extension Plan {
    /// One skill with `inputs` as a one-step plan, its step id the skill id with `_` (`notes_create`).
    public static func oneStep(skill: String, inputs: ValueObject) -> Plan {
        let id = String(skill.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return Plan(steps: [Step(id: id, target: skill, with: inputs)])
    }

    /// A playbook name for a skill id or a file name: `notes.create` → `notes-create`.
    public static func playbookName(_ text: String) -> String {
        let mapped = String(text.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "-" })
        let trimmed = mapped.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        guard let first = trimmed.first, first.isLetter else { return "ask-" + (trimmed.isEmpty ? "plan" : trimmed) }
        return trimmed
    }
}
