/// What the value of an option, or a command's positionals, are: shell completion offers
/// candidates by it (`skillbook completion`), the man pages name it.
enum ValueKind: Sendable, Hashable {
    /// Free text: nothing to offer.
    case text
    /// One of these words (`--tools playbooks|skills|all`).
    case choices([String])
    case file
    case directory
    /// A playbook name of the workspace (a path to a `.yaml` file works too).
    case playbook
    /// A skill id.
    case skill
    /// A recorded run, by a prefix of its id.
    case run
    /// `KEY=VALUE`: an input name of the playbook being run (or a parameter of the skill called).
    case input

    /// The kind a placeholder implies when a declaration names none: `DIR…` a folder, `FILE` a file.
    static func implied(by valueName: String?) -> ValueKind {
        guard let valueName else { return .text }
        if valueName.hasPrefix("DIR") { return .directory }
        if valueName == "FILE" { return .file }
        return .text
    }
}
