/// Loads a playbook from text: YAML, then structure, then the checker — every diagnostic at once.
public struct PlaybookLoader: Sendable {
    public let registry: SkillRegistry

    public init(registry: SkillRegistry) {
        self.registry = registry
    }

    public struct Result: Sendable {
        /// The playbook, when it has no errors.
        public var playbook: Playbook?
        public var diagnostics: [Diagnostic]
    }

    public func load(_ text: String, file: String) -> Result {
        let root: YAMLNode?
        do {
            root = try YAMLLoader().load(text, file: file)
        } catch {
            return Result(playbook: nil, diagnostics: error.diagnostics)
        }
        var diagnostics: [Diagnostic] = []
        guard let playbook = PlaybookDecoder().decode(root, file: file, diagnostics: &diagnostics) else {
            return Result(playbook: nil, diagnostics: diagnostics)
        }
        diagnostics += PlaybookChecker(registry: registry).check(playbook)
        diagnostics = diagnostics.sortedByLocation()
        return Result(playbook: diagnostics.hasErrors ? nil : playbook, diagnostics: diagnostics)
    }
}
