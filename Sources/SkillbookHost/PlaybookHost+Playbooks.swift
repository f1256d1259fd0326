public import Foundation
public import SkillbookCore

/// A playbook file read and checked, with its text kept for diagnostics.
public struct PlaybookFile: Sendable {
    public var url: URL
    /// The path as messages show it.
    public var displayName: String
    public var text: String
    /// The checked playbook (`nil` when it has errors) and every diagnostic.
    public var result: PlaybookLoader.Result

    public var playbook: Playbook? { result.playbook }
    public var sources: [String: String] { [displayName: text] }
}

extension PlaybookHost {
    /// Sub-playbooks are found by name in the playbooks folder.
    public var library: PlaybookLibrary {
        let host = self
        let directory = configuration.playbooksDirectory
        return PlaybookLibrary(
            source: { name in
                for ext in ["yaml", "yml"] {
                    let url = directory.appendingPathComponent("\(name).\(ext)")
                    // A file over the size limit, or not a regular file, is not read (`refusal` says why).
                    if let data = try? SourceFile.contents(url.path, display: host.displayPath(url)), let text = String(data: data, encoding: .utf8) {
                        return (text, host.displayPath(url))
                    }
                }
                return nil
            },
            names: { host.playbookNames() },
            refusal: { name in
                for ext in ["yaml", "yml"] {
                    let url = directory.appendingPathComponent("\(name).\(ext)")
                    do throws(SourceFile.Refusal) {
                        guard let data = try SourceFile.contents(url.path, display: host.displayPath(url)) else { continue }
                        if String(data: data, encoding: .utf8) == nil { return "\(host.displayPath(url)): is not UTF-8 text" }
                    } catch {
                        return error.message
                    }
                }
                return nil
            })
    }

    /// The playbook files (`*.yaml`, `*.yml`) in `directory` (default: the playbooks folder), sorted by name.
    public func playbookFiles(in directory: URL? = nil) -> [URL] {
        let directory = directory ?? configuration.playbooksDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// The names of the playbook files of the playbooks folder (`morning-briefing` for
    /// `morning-briefing.yaml`).
    public func playbookNames() -> [String] {
        playbookFiles().map { $0.deletingPathExtension().lastPathComponent }
    }

    /// A playbook given by name (`morning-briefing`, looked up in the playbooks folder) or as a file
    /// path (it contains `/` or ends in `.yaml`/`.yml`).
    public func locatePlaybook(_ reference: String) throws(HostError) -> URL {
        let fileManager = FileManager.default
        if reference.contains("/") || reference.hasSuffix(".yaml") || reference.hasSuffix(".yml") {
            let url = file(reference)
            guard fileManager.fileExists(atPath: url.path) else { throw .playbookFileMissing(path: reference) }
            return url
        }
        let directory = configuration.playbooksDirectory
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .noPlaybooksFolder(name: reference, folder: directory.path)
        }
        for ext in ["yaml", "yml"] {
            let url = directory.appendingPathComponent("\(reference).\(ext)")
            if fileManager.fileExists(atPath: url.path) { return url }
        }
        let names = playbookNames()
        throw .playbookNotFound(
            name: reference, folder: displayPath(directory), suggestion: Suggestion.closest(to: reference, in: names), available: names)
    }

    /// Reads and checks the playbook file at `url` against `registry`. A file that is not UTF-8
    /// is not checked further: its result holds one error at the first bad byte; nor is one over
    /// `Limits.sourceFileBytes` or not a regular file, which is not read at all.
    public func loadPlaybook(at url: URL, registry: SkillRegistry) throws(HostError) -> PlaybookFile {
        let displayName = displayPath(url)
        let read: Data?
        do {
            read = try SourceFile.contents(url.path, display: displayName)
        } catch {
            if case .unreadable = error { throw .playbookUnreadable(file: displayName) }
            return PlaybookFile(url: url, displayName: displayName, text: "", result: .init(playbook: nil, diagnostics: [error.diagnostic]))
        }
        guard let data = read else { throw .playbookUnreadable(file: displayName) }
        let (text, problem) = SourceText.decode(data, file: displayName)
        if let problem {
            return PlaybookFile(url: url, displayName: displayName, text: text, result: .init(playbook: nil, diagnostics: [problem]))
        }
        return PlaybookFile(url: url, displayName: displayName, text: text, result: check(text, file: displayName, registry: registry))
    }

    /// Checks playbook text (`file` names it in diagnostics).
    public func check(_ text: String, file: String, registry: SkillRegistry) -> PlaybookLoader.Result {
        PlaybookLoader(
            registry: registry, library: library, defaultNotify: configuration.notifyDefaults, secretNames: configuration.secrets.map(\.name)
        ).load(text, file: file)
    }

    /// The checked playbook of `text`; its warnings go to `onNotice`, errors are thrown.
    func checkedPlaybook(_ text: String, file: String, registry: SkillRegistry, onNotice: HostNoticeHandler) throws(HostError) -> Playbook {
        let result = check(text, file: file, registry: registry)
        guard let playbook = result.playbook else { throw .invalidPlaybook(diagnostics: result.diagnostics, sources: [file: text]) }
        if !result.diagnostics.isEmpty { onNotice(.diagnostics(result.diagnostics, sources: [file: text])) }
        return playbook
    }
}
