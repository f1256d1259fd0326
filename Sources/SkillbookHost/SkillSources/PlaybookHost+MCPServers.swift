import Foundation
import SkillbookCore
import SkillbookMCP
import SkillbookSkills
import SkillbookSystem

extension PlaybookHost {
    /// Lists the tools of every MCP server declared in the skill folders (`mcp:` manifests) that
    /// has no cached tool list yet, all at once: each is started, its tools are listed into the
    /// cache of the state folder, and it keeps running for this host's calls until `shutdown()`.
    /// The registry built next then has its skills. A server whose tools cannot be listed is
    /// reported by the registry, as a warning at its manifest; nothing here throws.
    /// With `refreshing`, every server is listed again, cached or not (`skills --refresh`).
    public func listUncachedMCPServers(refreshing: Bool = false) async {
        await listUncached(declaredMCPServers(), refreshing: refreshing)
    }

    /// The MCP servers the skill folders declare (`mcp:` manifests), in folder order; a prefix an
    /// earlier folder took is left out (the registry reports it as an error; it is never started).
    func declaredMCPServers() -> [MCPServerManifest] {
        let runner = processRunner
        var servers: [MCPServerManifest] = []
        for directory in configuration.skillDirectories where HostConfiguration.isDirectory(directory) {
            let found = ManifestLoader(runner: runner).load(directory: directory, displayPath: displayPath).servers
            servers += found.filter { server in !servers.contains { $0.prefix == server.prefix } }
        }
        return servers
    }

    /// Lists the tools of those of `servers` that have no cached tool list yet (see
    /// `listUncachedMCPServers()`).
    func listUncached(_ servers: [MCPServerManifest], refreshing: Bool = false) async {
        let runner = processRunner
        let sources = servers.map { mcpSource($0, runner: runner) }.filter { refreshing || $0.cachedSkills() == nil }
        guard !sources.isEmpty else { return }
        let pool = mcpServers
        await withTaskGroup(of: Void.self) { group in
            for source in sources { group.addTask { await pool.list(source) } }
        }
    }

    /// Stops the MCP servers this host's skills started (see `MCPServerPool.shutdown()`). Call
    /// it when done with the host and every copy of it.
    public func shutdown() async {
        await mcpServers.shutdown()
    }

    /// Registers the skills of each server from its cached tool list. A server without one is a
    /// warning (with why listing it failed, when it did), also returned; a skill id that is taken
    /// is an error at the server's prefix; what its tools' schemas lose in our subset are warnings.
    func registerMCPSkills(
        of servers: [MCPServerManifest], into registry: inout SkillRegistry, runner: any ProcessRunning, diagnostics: inout [Diagnostic]
    ) -> [Diagnostic] {
        var withoutSkills: [Diagnostic] = []
        for server in servers {
            let source = mcpSource(server, runner: runner)
            let name = "MCP server '\(server.prefix)'"
            guard let set = source.cachedSkills() else {
                let why =
                    mcpServers.listingFailure(of: source).map { "cannot list its tools: \($0)" }
                    ?? "its tools are not known yet (no cached tool list); 'skillbook validate' starts it once to list them"
                let warning = Diagnostic.warning("\(name) has no skills: \(why)", at: server.location)
                diagnostics.append(warning)
                withoutSkills.append(warning)
                continue
            }
            for warning in set.warnings { diagnostics.append(.warning("\(name): \(warning)", at: server.location)) }
            if let cachedAt = set.cachedAt {
                registry.toolListNotes[server.prefix] =
                    "tool list cached at \(Self.localTime(cachedAt, in: configuration.timeZone)); refresh with `skillbook skills --refresh`"
            }
            // Its tools' `format: path` parameters stay in the allowed folders, relative to the
            // folder the server runs in.
            let paths = PathParameters(
                environment: skillEnvironment, workingDirectory: server.directory ?? configuration.currentDirectory.path)
            for skill in set.skills {
                do throws(SkillRegistry.RegistryError) {
                    try registry.register(PathCheckedSkill(skill, paths: paths))
                } catch {
                    let message: String =
                        switch (error, registry[skill.descriptor.id]) {
                        case (.duplicate, let existing as ManifestSkill):
                            "\(name) has a tool that becomes skill '\(skill.descriptor.id)', which is already declared at "
                                + "\(existing.manifest.idLocation); choose another prefix"
                        case (.duplicate, _):
                            "\(name) has a tool that becomes skill '\(skill.descriptor.id)', the id of a built-in skill; choose another prefix"
                        default:
                            "\(name): \(error)"
                        }
                    diagnostics.append(.error(message, at: server.prefixLocation))
                }
            }
        }
        return withoutSkills
    }

    /// The pooled source of a declared server: its command runs in the manifest's folder, with
    /// the variables it sets and those it passes on from the configuration's environment.
    func mcpSource(_ server: MCPServerManifest, runner: any ProcessRunning) -> MCPSkillSource {
        var environment: [String: String] = [:]
        for name in server.passedEnvironment {
            if let value = configuration.environment[name] { environment[name] = value }
        }
        environment.merge(server.environment) { _, set in set }
        let command = MCPServerCommand(
            [server.program] + server.command.dropFirst(), environment: environment,
            workingDirectory: server.directory ?? configuration.currentDirectory.path, timeout: server.timeout)
        return mcpServers.source(
            for: MCPSourceConfiguration(prefix: server.prefix, command: command, manifest: server.path), processes: runner,
            cacheDirectory: configuration.stateDirectory.path)
    }

    /// `2026-05-01 09:00:00 +02:00` in `zone`.
    static func localTime(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0) + " " + zone.offsetText(at: date)
    }

    /// The process port of skills and servers: no shell, the configuration's environment and folder.
    var processRunner: ProcessRunner {
        ProcessRunner(inheritedEnvironment: configuration.environment, workingDirectory: configuration.currentDirectory.path)
    }
}
