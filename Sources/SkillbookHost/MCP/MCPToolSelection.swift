/// Which tools `skillbook mcp` serves (`--tools`).
public enum MCPToolSelection: String, Sendable, CaseIterable {
    /// Every playbook of the playbooks folder, named by its file name.
    case playbooks
    /// Every skill of the registry, named by its id.
    case skills
    /// Playbooks first, then skills.
    case all

    var includesPlaybooks: Bool { self != .skills }
    var includesSkills: Bool { self != .playbooks }
}
