/// Where sub-playbooks are found by name.
public struct PlaybookLibrary: Sendable {
    /// The text and display file name of the playbook with that name, if there is one.
    public var source: @Sendable (_ name: String) -> (text: String, file: String)?
    /// Every name, for suggestions.
    public var names: @Sendable () -> [String]

    public init(
        source: @escaping @Sendable (String) -> (text: String, file: String)?,
        names: @escaping @Sendable () -> [String]
    ) {
        self.source = source
        self.names = names
    }

    public static let empty = PlaybookLibrary(source: { _ in nil }, names: { [] })
}

/// Loads a playbook from text: YAML, then structure, then sub-playbooks, then the checker —
/// every diagnostic at once.
public struct PlaybookLoader: Sendable {
    /// How deep sub-playbooks may nest (the top playbook is level 1).
    public static let maximumDepth = 5

    public let registry: SkillRegistry
    public let library: PlaybookLibrary

    public init(registry: SkillRegistry, library: PlaybookLibrary = .empty) {
        self.registry = registry
        self.library = library
    }

    public struct Result: Sendable {
        /// The playbook, when it has no errors.
        public var playbook: Playbook?
        public var diagnostics: [Diagnostic]
    }

    public func load(_ text: String, file: String) -> Result {
        var cache: [String: Result] = [:]
        return load(text, file: file, ancestry: [], cache: &cache)
    }

    private func load(_ text: String, file: String, ancestry: [String], cache: inout [String: Result]) -> Result {
        let root: YAMLNode?
        do {
            root = try YAMLLoader().load(text, file: file)
        } catch {
            return Result(playbook: nil, diagnostics: error.diagnostics)
        }
        var diagnostics: [Diagnostic] = []
        guard var playbook = PlaybookDecoder().decode(root, file: file, diagnostics: &diagnostics) else {
            return Result(playbook: nil, diagnostics: diagnostics)
        }
        resolveSubPlaybooks(&playbook, ancestry: ancestry, cache: &cache, &diagnostics)
        diagnostics += PlaybookChecker(registry: registry).check(playbook)
        diagnostics = diagnostics.sortedByLocation()
        return Result(playbook: diagnostics.hasErrors ? nil : playbook, diagnostics: diagnostics)
    }

    private func resolveSubPlaybooks(
        _ playbook: inout Playbook, ancestry: [String], cache: inout [String: Result], _ diagnostics: inout [Diagnostic]
    ) {
        let chain = ancestry + [playbook.name]
        for step in playbook.steps {
            guard let name = step.playbook, !name.isEmpty, playbook.subPlaybooks[name] == nil else { continue }
            let at = step.skillLocation
            if chain.contains(name) {
                let cycle = (chain.drop { $0 != name } + [name]).joined(separator: " → ")
                diagnostics.append(.error("step '\(step.id)' makes a playbook cycle: \(cycle)", at: at))
                continue
            }
            if chain.count + 1 > Self.maximumDepth {
                diagnostics.append(
                    .error(
                        "step '\(step.id)' nests playbooks deeper than \(Self.maximumDepth) levels: \((chain + [name]).joined(separator: " → "))",
                        at: at))
                continue
            }
            let result: Result
            if let cached = cache[name] {
                result = cached
            } else if let source = library.source(name) {
                result = load(source.text, file: source.file, ancestry: chain, cache: &cache)
                cache[name] = result
            } else {
                let suggestion = Suggestion.closest(to: name, in: library.names()).map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(.error("step '\(step.id)' runs unknown playbook '\(name)'\(suggestion)", at: at))
                continue
            }
            guard let sub = result.playbook else {
                let errors = result.diagnostics.filter { $0.severity == .error }
                let nested = errors.contains { $0.message.contains("playbook cycle") || $0.message.contains("nests playbooks") }
                if nested, let first = errors.first {
                    diagnostics.append(.error(first.message, at: at))
                } else {
                    let first = errors.first.map { ": \($0)" } ?? ""
                    diagnostics.append(
                        .error(
                            "step '\(step.id)' runs playbook '\(name)', which has \(errors.count) error\(errors.count == 1 ? "" : "s")\(first)",
                            at: at))
                }
                continue
            }
            playbook.subPlaybooks[name] = sub
        }
    }
}
