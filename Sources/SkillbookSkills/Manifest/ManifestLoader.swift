public import Foundation
public import SkillbookCore
public import SkillbookSystem

/// Reads skill manifests (`*.yaml`, `*.yml`) from folders, with every problem as a diagnostic.
///
/// A manifest with errors is left out (and its diagnostics reported); a manifest whose command
/// is not on PATH is kept, marked unavailable with the reason. A manifest with the key `mcp`
/// declares an MCP server instead of a command (`MCPServerManifest`): the host makes its skills.
public struct ManifestLoader: Sendable {
    public var runner: any ProcessRunning
    /// Where manifest commands run; `nil` keeps the current directory.
    public var workingDirectory: String?
    /// The allowed folders for the skills' `format: path` parameters; `nil` checks none.
    public var environment: SkillEnvironment?

    public init(runner: any ProcessRunning = ProcessRunner(), workingDirectory: String? = nil, environment: SkillEnvironment? = nil) {
        self.runner = runner
        self.workingDirectory = workingDirectory
        self.environment = environment
    }

    public struct Result: Sendable {
        public var skills: [ManifestSkill] = []
        /// The manifests that declare an MCP server (`mcp:`), in file order.
        public var servers: [MCPServerManifest] = []
        /// Sorted by file, line and column.
        public var diagnostics: [Diagnostic] = []
        /// Each file's text by its display name, so a printer can show the offending line.
        public var sources: [String: String] = [:]
    }

    /// Every manifest in `directory`, in file-name order. Two manifests with the same id: the
    /// second is an error.
    public func load(directory: URL, displayPath: (URL) -> String = { $0.path }) -> Result {
        var result = Result()
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            result.diagnostics.append(.error("cannot read the skills folder '\(displayPath(directory))'", path: displayPath(directory)))
            return result
        }
        var seen: [String: SourceLocation] = [:]
        var prefixes: [String: SourceLocation] = [:]
        for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            let url = directory.appendingPathComponent(name)
            let file = displayPath(url)
            let read: Data?
            do {
                read = try SourceFile.contents(url.path, display: file)
            } catch {
                result.diagnostics.append(error.diagnostic)
                continue
            }
            guard let data = read, let text = String(data: data, encoding: .utf8)
            else {
                result.diagnostics.append(
                    .error("the manifest cannot be read as UTF-8 text", at: SourceLocation(file: file, line: 1, column: 1)))
                continue
            }
            result.sources[file] = text
            let (entry, diagnostics) = loadEntry(text, file: file, path: url.path, manifestDirectory: directory.path)
            result.diagnostics += diagnostics
            let skill: ManifestSkill
            switch entry {
            case nil: continue
            case .server(let server):
                if let first = prefixes[server.prefix] {
                    result.diagnostics.append(
                        .error(
                            "prefix '\(server.prefix)' is already used by the MCP server declared at \(first); prefixes must be unique",
                            at: server.prefixLocation))
                } else {
                    prefixes[server.prefix] = server.prefixLocation
                    result.servers.append(server)
                }
                continue
            case .skill(let loaded): skill = loaded
            }
            if let first = seen[skill.manifest.id] {
                result.diagnostics.append(
                    .error(
                        "skill '\(skill.manifest.id)' is already declared at \(first); skill ids must be unique",
                        at: skill.manifest.idLocation))
                continue
            }
            seen[skill.manifest.id] = skill.manifest.idLocation
            result.skills.append(skill)
        }
        result.diagnostics = result.diagnostics.sortedByLocation()
        return result
    }

    /// What one manifest declares.
    public enum Entry: Sendable {
        /// A command run as a skill.
        case skill(ManifestSkill)
        /// An MCP server whose tools are skills.
        case server(MCPServerManifest)
    }

    /// One manifest's text: a command skill, or (with the key `mcp`) an MCP server. `path` is
    /// the file's absolute path when it has one.
    public func loadEntry(_ text: String, file: String, path: String? = nil, manifestDirectory: String? = nil) -> (
        entry: Entry?, diagnostics: [Diagnostic]
    ) {
        let root: YAMLNode?
        do {
            root = try YAMLLoader().load(text, file: file)
        } catch {
            return (nil, error.diagnostics)
        }
        var diagnostics: [Diagnostic] = []
        if let root, root["mcp"] != nil {
            var server = MCPServerManifestDecoder().decode(root, file: file, diagnostics: &diagnostics)
            server?.path = path ?? file
            server?.directory = manifestDirectory
            return (server.map(Entry.server), diagnostics.sortedByLocation())
        }
        guard let manifest = ManifestDecoder().decode(root, file: file, diagnostics: &diagnostics) else {
            return (nil, diagnostics.sortedByLocation())
        }
        let skill = ManifestSkill(
            manifest: manifest, runner: runner, workingDirectory: workingDirectory, manifestDirectory: manifestDirectory,
            environment: environment)
        return (.skill(skill), diagnostics.sortedByLocation())
    }

    /// One manifest's text as a command skill (`nil` for one that declares an MCP server).
    public func load(_ text: String, file: String, manifestDirectory: String? = nil) -> (skill: ManifestSkill?, diagnostics: [Diagnostic]) {
        let (entry, diagnostics) = loadEntry(text, file: file, manifestDirectory: manifestDirectory)
        guard case .skill(let skill) = entry else { return (nil, diagnostics) }
        return (skill, diagnostics)
    }

    /// Loads each folder and registers its skills in `registry`. A manifest whose id is already
    /// registered (a built-in skill, or a manifest of an earlier folder) is an error at its id.
    public func load(
        directories: [URL], into registry: inout SkillRegistry, displayPath: (URL) -> String = { $0.path }
    ) -> Result {
        var combined = Result()
        for directory in directories {
            let result = load(directory: directory, displayPath: displayPath)
            combined.diagnostics += result.diagnostics
            combined.sources.merge(result.sources) { first, _ in first }
            for server in result.servers {
                if let first = combined.servers.first(where: { $0.prefix == server.prefix }) {
                    combined.diagnostics.append(
                        .error(
                            "prefix '\(server.prefix)' is already used by the MCP server declared at \(first.prefixLocation); "
                                + "prefixes must be unique",
                            at: server.prefixLocation))
                } else {
                    combined.servers.append(server)
                }
            }
            for skill in result.skills {
                do {
                    try registry.register(skill)
                    combined.skills.append(skill)
                } catch {
                    let id = skill.manifest.id
                    let message: String =
                        switch (error, registry[id]) {
                        case (.duplicate, let existing as ManifestSkill):
                            "skill '\(id)' is already declared at \(existing.manifest.idLocation); skill ids must be unique"
                        case (.duplicate, _):
                            "skill '\(id)' has the id of a built-in skill; skill ids must be unique"
                        default:
                            error.description
                        }
                    combined.diagnostics.append(.error(message, at: skill.manifest.idLocation))
                }
            }
        }
        combined.diagnostics = combined.diagnostics.sortedByLocation()
        return combined
    }
}
