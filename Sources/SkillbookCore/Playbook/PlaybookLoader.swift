/// Where sub-playbooks are found by name.
public struct PlaybookLibrary: Sendable {
    /// The text and display file name of the playbook with that name, if there is one.
    public var source: @Sendable (_ name: String) -> (text: String, file: String)?
    /// Every name, for suggestions.
    public var names: @Sendable () -> [String]
    /// Why the playbook with that name, which `source` did not give, is there but was not read
    /// (over the file limit, not a regular file, not UTF-8), if it is: said instead of "unknown".
    public var refusal: @Sendable (_ name: String) -> String?

    public init(
        source: @escaping @Sendable (String) -> (text: String, file: String)?,
        names: @escaping @Sendable () -> [String],
        refusal: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.source = source
        self.names = names
        self.refusal = refusal
    }

    public static let empty = PlaybookLibrary(source: { _ in nil }, names: { [] })
}

/// Loads a playbook from text: YAML, then structure, then sub-playbooks, then the checker —
/// every diagnostic at once.
public struct PlaybookLoader: Sendable {
    /// How deep sub-playbooks may nest (the top playbook is level 1).
    public static let maximumDepth = Limits.playbookNesting

    public let registry: SkillRegistry
    public let library: PlaybookLibrary
    /// The workspace's `notify:` (`skillbook.yaml`), for the events a playbook does not map.
    public let defaultNotify: [NotifyRule]

    /// The names of `secrets:` (see `PlaybookChecker.secretNames`).
    public var secretNames: [String]?

    public init(registry: SkillRegistry, library: PlaybookLibrary = .empty, defaultNotify: [NotifyRule] = [], secretNames: [String]? = nil) {
        self.secretNames = secretNames
        self.registry = registry
        self.library = library
        self.defaultNotify = defaultNotify
    }

    public struct Result: Sendable {
        /// The playbook, when it has no errors.
        public var playbook: Playbook?
        public var diagnostics: [Diagnostic]

        public init(playbook: Playbook?, diagnostics: [Diagnostic]) {
            self.playbook = playbook
            self.diagnostics = diagnostics
        }
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
        if let problem = Self.nameMismatch(playbook) { diagnostics.append(problem) }
        if ancestry.isEmpty {
            playbook.addDefaultNotify(defaultNotify)
        } else {
            // Only the run's own playbook notifies: a sub-playbook's `notify:` is checked when it
            // is loaded on its own.
            playbook.notify = []
        }
        resolveSubPlaybooks(&playbook, ancestry: ancestry, cache: &cache, &diagnostics)
        resolveNotifyTargets(&playbook, cache: &cache, &diagnostics)
        diagnostics += PlaybookChecker(registry: registry, secretNames: secretNames).check(playbook)
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
            } else if let refusal = library.refusal(name) {
                diagnostics.append(.error("step '\(step.id)' runs playbook '\(name)', which is not read: \(refusal)", at: at))
                continue
            } else {
                let suggestion = Suggestion.closest(to: name, in: library.names()).map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(.error("step '\(step.id)' runs unknown playbook '\(name)'\(suggestion)", at: at))
                continue
            }
            guard let sub = result.playbook else {
                let errors = result.diagnostics.filter { $0.severity == .error }
                let nested = errors.contains { $0.message.contains("playbook cycle") || $0.message.contains("nests playbooks") }
                if nested, let first = errors.first {
                    // The nested message names a step of the other file; this position is this step.
                    diagnostics.append(.error(Self.renamingStep(first.message, to: step.id), at: at))
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

    /// The playbooks `notify:` steps run. A notification never notifies, so a target may be the
    /// playbook itself; the targets' own sub-playbooks are checked for cycles as usual.
    private func resolveNotifyTargets(_ playbook: inout Playbook, cache: inout [String: Result], _ diagnostics: inout [Diagnostic]) {
        for step in playbook.notify.flatMap(\.steps) {
            guard let name = step.playbook, !name.isEmpty, playbook.subPlaybooks[name] == nil else { continue }
            let at = step.skillLocation
            let result: Result
            if let cached = cache[name] {
                result = cached
            } else if let source = library.source(name) {
                result = load(source.text, file: source.file, ancestry: [playbook.name], cache: &cache)
                cache[name] = result
            } else if let refusal = library.refusal(name) {
                diagnostics.append(.error("notify step '\(step.id)' runs playbook '\(name)', which is not read: \(refusal)", at: at))
                continue
            } else {
                let suggestion = Suggestion.closest(to: name, in: library.names()).map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(.error("notify step '\(step.id)' runs unknown playbook '\(name)'\(suggestion)", at: at))
                continue
            }
            guard let target = result.playbook else {
                let errors = result.diagnostics.filter { $0.severity == .error }
                let first = errors.first.map { ": \($0)" } ?? ""
                diagnostics.append(
                    .error(
                        "notify step '\(step.id)' runs playbook '\(name)', which has \(errors.count) error\(errors.count == 1 ? "" : "s")\(first)",
                        at: at))
                continue
            }
            playbook.subPlaybooks[name] = target
        }
    }

    /// `step 'x' makes a playbook cycle: …` with this file's step id in place of the nested one.
    static func renamingStep(_ message: String, to id: String) -> String {
        guard message.hasPrefix("step '"), let end = message.dropFirst(6).firstIndex(of: "'") else { return message }
        return "step '\(id)'" + message[message.index(after: end)...]
    }

    /// A playbook in a `Playbooks/` folder is found by its file name (`run NAME`, `show`,
    /// sub-playbook steps), so its `name` must be that name. Files elsewhere, run by path, are not
    /// looked up by name and may be called anything.
    static func nameMismatch(_ playbook: Playbook) -> Diagnostic? {
        let parts = playbook.file.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[parts.count - 2] == "Playbooks", let fileName = parts.last else { return nil }
        var stem = String(fileName)
        for suffix in [".yaml", ".yml"] where stem.hasSuffix(suffix) { stem.removeLast(suffix.count) }
        guard stem != String(fileName), !playbook.name.isEmpty, playbook.name != stem,
            let location = playbook.nameLocation
        else { return nil }
        return .error(
            "playbook name '\(playbook.name)' does not match its file name '\(fileName)'; a playbook is found by its file name",
            at: location, hint: "write `name: \(stem)`, or rename the file to \(playbook.name).yaml")
    }
}
