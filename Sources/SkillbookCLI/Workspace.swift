import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookStore

/// Where things are for one invocation: playbooks, state, and the skills that exist.
struct Workspace {
    var playbooksDirectory: URL
    var stateDirectory: URL
    /// Folders file skills may touch besides the current and state directories (`--allow-path`).
    var allowedPaths: [URL]
    var environment: [String: String]
    /// Relative paths on the command line are read from here.
    var currentDirectory: URL
    /// `./Skills` when it exists, then each `--skills DIR` (which must exist), without repeats.
    var skillDirectories: [URL]
    /// `--skills` folders that do not exist, reported when the registry is built.
    var missingSkillDirectories: [String]

    init(arguments: ParsedArguments, environment: [String: String], currentDirectory: URL) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        var directories: [URL] = []
        var missing: [String] = []
        func isDirectory(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        let local = currentDirectory.appendingPathComponent("Skills").standardizedFileURL
        if isDirectory(local) { directories.append(local) }
        for path in arguments.all("skills") {
            let url = URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
            if !isDirectory(url) {
                missing.append(path)
            } else if !directories.contains(where: { $0.path == url.path }) {
                directories.append(url)
            }
        }
        skillDirectories = directories
        missingSkillDirectories = missing
        let playbooks = arguments.value("playbooks") ?? "Playbooks"
        playbooksDirectory = Self.resolve(playbooks, against: currentDirectory)
        stateDirectory = Self.stateDirectory(arguments.value("state"), environment: environment, currentDirectory: currentDirectory)
        allowedPaths = arguments.all("allow-path").map { Self.resolve($0, against: currentDirectory) }
    }

    /// `--state`, else `$SKILLBOOK_HOME`, else `$XDG_STATE_HOME/skillbook`, else `~/.local/state/skillbook`.
    static func stateDirectory(_ option: String?, environment: [String: String], currentDirectory: URL) -> URL {
        func url(_ path: String) -> URL { resolve(path, against: currentDirectory) }
        if let option, !option.isEmpty { return url(option) }
        if let home = environment["SKILLBOOK_HOME"], !home.isEmpty { return url(home) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return url(xdg).appendingPathComponent("skillbook") }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return url(home).appendingPathComponent(".local/state/skillbook")
    }

    /// The built-in skills and the manifest skills of `skillDirectories`. Manifest errors are
    /// thrown together (exit code 2), with the files' text so each prints with its line; warnings
    /// are printed to `warnings` when given (the commands that check things: validate, skills).
    func registry(printingWarningsTo warnings: Console? = nil) throws -> SkillRegistry {
        if let missing = missingSkillDirectories.first {
            throw UsageError(message: "no skills folder at '\(missing)'")
        }
        let runner = ProcessRunner(inheritedEnvironment: environment, workingDirectory: currentDirectory.path)
        let skills = SkillEnvironment(
            stateDirectory: stateDirectory, currentDirectory: currentDirectory,
            allowedRoots: [currentDirectory, stateDirectory] + allowedPaths, processes: runner,
            stores: .sqlite(stateDirectory: stateDirectory))
        var registry = try SkillRegistry(BuiltinSkills.all(environment: skills))
        let loader = ManifestLoader(runner: runner, workingDirectory: currentDirectory.path)
        let manifests = loader.load(directories: skillDirectories, into: &registry, displayPath: displayPath)
        if manifests.diagnostics.hasErrors {
            throw SourcedDiagnosticError(diagnostics: manifests.diagnostics, sources: manifests.sources)
        }
        if let warnings, !manifests.diagnostics.isEmpty {
            DiagnosticPrinter(console: warnings, sources: manifests.sources).print(manifests.diagnostics)
        }
        return registry
    }

    /// The run journal in the state directory.
    func journal() throws(StoreError) -> SQLiteJournal {
        try SQLiteJournal(stateDirectory: stateDirectory)
    }

    /// Sub-playbooks are found by name in the playbooks directory.
    var library: PlaybookLibrary {
        let directory = playbooksDirectory
        let workspace = self
        return PlaybookLibrary(
            source: { name in
                for ext in ["yaml", "yml"] {
                    let url = directory.appendingPathComponent("\(name).\(ext)")
                    if let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) {
                        return (text, workspace.displayPath(url))
                    }
                }
                return nil
            },
            names: { workspace.playbookFiles().map { $0.deletingPathExtension().lastPathComponent } })
    }

    /// The playbook files in the playbooks directory, sorted by name.
    func playbookFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: playbooksDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { playbooksDirectory.appendingPathComponent($0) }
    }

    /// A playbook given as a name (`morning-briefing`) or as a file path.
    func locatePlaybook(_ reference: String) throws(UsageError) -> URL {
        let fileManager = FileManager.default
        let looksLikePath = reference.contains("/") || reference.hasSuffix(".yaml") || reference.hasSuffix(".yml")
        if looksLikePath {
            let url = file(reference)
            guard fileManager.fileExists(atPath: url.path) else {
                throw UsageError(message: "no playbook file at '\(reference)'")
            }
            return url
        }
        for ext in ["yaml", "yml"] {
            let url = playbooksDirectory.appendingPathComponent("\(reference).\(ext)")
            if fileManager.fileExists(atPath: url.path) { return url }
        }
        let names = playbookFiles().map { $0.deletingPathExtension().lastPathComponent }
        var message = "no playbook named '\(reference)' in \(displayPath(playbooksDirectory))"
        if let suggestion = Suggestion.closest(to: reference, in: names) {
            message += "; did you mean '\(suggestion)'?"
        } else if !names.isEmpty {
            message += " (available: \(names.joined(separator: ", ")))"
        }
        throw UsageError(message: message)
    }

    /// A path given on the command line, relative to the invocation's current directory.
    func file(_ path: String) -> URL {
        Self.resolve(path, against: currentDirectory)
    }

    /// `path` as an absolute file URL; a relative one is taken inside `directory` (which need not
    /// end in '/': a URL without it would resolve against its parent).
    static func resolve(_ path: String, against directory: URL) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory.path, isDirectory: true)).standardizedFileURL
    }

    /// A path as the user would write it: relative to the current directory when inside it.
    func displayPath(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let path = url.standardizedFileURL.path
        if path.hasPrefix(cwd + "/") { return String(path.dropFirst(cwd.count + 1)) }
        return path
    }
}

/// Reads and checks a playbook file, keeping the source for diagnostics.
struct LoadedPlaybookFile {
    var displayName: String
    var text: String
    var result: PlaybookLoader.Result

    init(url: URL, displayName: String, registry: SkillRegistry, library: PlaybookLibrary) throws(UsageError) {
        self.displayName = displayName
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw UsageError(message: "cannot read playbook file '\(displayName)'")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw UsageError(message: "playbook file '\(displayName)' is not UTF-8 text")
        }
        self.text = text
        result = PlaybookLoader(registry: registry, library: library).load(text, file: displayName)
    }
}
