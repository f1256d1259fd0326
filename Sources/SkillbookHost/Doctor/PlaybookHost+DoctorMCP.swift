import Foundation
import SkillbookCore
import SkillbookMCP
import SkillbookSkills

extension PlaybookHost {
    /// One check per MCP server the skill folders declare (`mcp:PREFIX`), all at once, in the
    /// order declared: the server is started afresh (a client of its own, not the host's pool), its
    /// tools are listed and compared with the cached tool list, and it is stopped. A server that
    /// does not start, or whose tools differ from the cache (a stale cache: the playbooks were
    /// checked against tools that are not what the server has now), is a problem. The cache is
    /// not rewritten here: `skillbook skills --refresh` does that.
    func mcpServerChecks() async -> [DoctorCheck] {
        let servers = declaredMCPServers()
        guard !servers.isEmpty else { return [] }
        let runner = processRunner
        let sources = servers.map { ($0, mcpSource($0, runner: runner).configuration) }
        let stateDirectory = configuration.stateDirectory.path
        return await withTaskGroup(of: (Int, DoctorCheck).self) { group in
            for (index, (server, source)) in sources.enumerated() {
                group.addTask {
                    let cache = MCPToolListCache(
                        directory: stateDirectory, prefix: source.prefix, manifest: source.manifest, command: source.command)
                    return (index, await Self.mcpServerCheck(server, command: source.command, cache: cache, runner: runner))
                }
            }
            var checks: [(Int, DoctorCheck)] = []
            for await check in group { checks.append(check) }
            return checks.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    private static func mcpServerCheck(
        _ server: MCPServerManifest, command: MCPServerCommand, cache: MCPToolListCache, runner: any ProcessRunning
    ) async -> DoctorCheck {
        let name = "mcp:\(server.prefix)"
        let client = MCPClient(command: command, processes: runner)
        let tools: [MCPTool]
        do {
            tools = try await client.listTools()
        } catch {
            await client.stop()
            return DoctorCheck(
                name, .failed, "does not start or list its tools: \(firstLine(of: error))",
                fix: "correct the mcp: command at \(server.location), or run it by hand to see why: \(command.display)")
        }
        let info = await client.serverInfo
        await client.stop()
        let server = info.flatMap { info in
            info["name"]?.stringValue.map { $0 + (info["version"]?.stringValue.map { " " + $0 } ?? "") }
        }
        let started = "starts" + (server.map { " (\($0))" } ?? "") + ", \(tools.count) tool\(tools.count == 1 ? "" : "s")"
        guard let cached = cache.loadEntry() else {
            return DoctorCheck(
                name, .failed, "\(started), but no cached tool list: playbooks are checked without its skills",
                fix: "skillbook skills --refresh")
        }
        let difference = MCPToolListDifference(cached: cached.tools, current: tools)
        guard difference.isEmpty else {
            return DoctorCheck(
                name, .failed, "\(started); the cached tool list is stale (\(difference.summary))",
                fix: "skillbook skills --refresh (then 'skillbook validate' checks the playbooks against the tools it has now)")
        }
        return DoctorCheck(name, .ok, "\(started), as in its cached tool list")
    }
}
