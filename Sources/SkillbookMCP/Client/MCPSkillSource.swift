public import SkillbookCore
public import Foundation
import Synchronization

/// A server declared in a manifest (`mcp: { command: [...], prefix: calc, timeout: 30s }`).
public struct MCPSourceConfiguration: Sendable, Hashable {
    /// The first part of every skill id (`calc` → `calc.add`): lowercase letters, digits, `_`.
    public var prefix: String
    public var command: MCPServerCommand
    /// The path of the manifest that declares it (with the command, the key of its tool-list cache).
    public var manifest: String?

    public init(prefix: String, command: MCPServerCommand, manifest: String? = nil) {
        self.prefix = prefix
        self.command = command
        self.manifest = manifest
    }

    /// Whether `prefix` can start a skill id.
    public static func isValidPrefix(_ prefix: String) -> Bool {
        SkillDescriptor.isValidID("\(prefix).x")
    }
}

/// The skills of one server, and what mapping its tools reported.
public struct MCPSkillSet: Sendable {
    public var skills: [any Skill]
    /// Keywords outside our schema subset, tools left out: for `validate` to show as warnings.
    public var warnings: [String]
    /// When the tool list was listed, for a list read from the cache that this process has not
    /// listed itself (`nil` otherwise): an unknown tool of this server may be newer than it.
    public var cachedAt: Date? = nil
}

/// An MCP server as a source of skills: its tools become skills `PREFIX.TOOL`.
///
/// Semantics: `cachedSkills` reads the cached tool list and never starts the server;
/// `loadSkills` starts it (when it is not running), lists its tools and rewrites the cache.
/// The server starts on the first call of any of its skills (which also refreshes the cache),
/// is restarted by a later call after it died, and stops in `shutdown` (close stdin, wait,
/// SIGTERM, SIGKILL).
public final class MCPSkillSource: Sendable {
    public let configuration: MCPSourceConfiguration
    let client: MCPClient
    let cache: MCPToolListCache?
    private let processes: any ProcessRunning
    private let log: @Sendable (String) -> Void
    /// Whether this process listed the tools (so the cache holds what the server says now).
    private let listedHere = Mutex(false)

    /// `processes` starts the server; `cacheDirectory`: the state folder (`nil` keeps no cache);
    /// `log` hears what goes wrong on the side (an unreadable line, a cache that cannot be written).
    public init(
        _ configuration: MCPSourceConfiguration, processes: any ProcessRunning, cacheDirectory: String?,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.log = log
        self.processes = processes
        client = MCPClient(command: configuration.command, processes: processes, log: log)
        cache = cacheDirectory.map {
            MCPToolListCache(directory: $0, prefix: configuration.prefix, manifest: configuration.manifest, command: configuration.command)
        }
    }

    public func cachedSkills() -> MCPSkillSet? {
        guard let entry = cache?.loadEntry() else { return nil }
        var set = skillSet(entry.tools)
        if !listedHere.withLock({ $0 }) { set.cachedAt = entry.listedAt ?? Date(timeIntervalSince1970: 0) }
        return set
    }

    public func loadSkills() async throws(MCPClientError) -> MCPSkillSet {
        skillSet(try await refreshedTools())
    }

    /// The cached skills when there are, else `loadSkills()`.
    public func skills() async throws(MCPClientError) -> MCPSkillSet {
        if let cached = cachedSkills() { return cached }
        return try await loadSkills()
    }

    public func shutdown() async {
        await client.stop()
    }

    private func refreshedTools() async throws(MCPClientError) -> [MCPTool] {
        let tools = try await client.listTools()
        listedHere.withLock { $0 = true }
        do {
            try cache?.save(tools)
        } catch {
            log("cannot write the tool list cache \(cache?.file ?? ""): \(error)")
        }
        return tools
    }

    /// A skill's own timeout: the server's answer time, plus time to start and stop it, so that
    /// a server that does not answer fails with the client's message naming it (and is restarted).
    public var skillTimeout: Double {
        configuration.command.timeout + 2 * configuration.command.shutdownGrace + 1
    }

    /// Whether the server's program can be started here, and why not.
    public var availability: SkillDescriptor.Availability {
        let program = configuration.command.arguments.first ?? ""
        guard processes.locate(program) == nil else { return .available }
        return .unavailable(
            reason: program.contains("/")
                ? "the MCP server's program '\(program)' is not an executable file" : "the MCP server's program '\(program)' not found on PATH")
    }

    private func skillSet(_ tools: [MCPTool]) -> MCPSkillSet {
        let (descriptors, warnings) = MCPToolMapping.descriptors(for: tools, prefix: configuration.prefix, timeout: skillTimeout)
        let availability = availability
        var skills: [any Skill] = []
        for var descriptor in descriptors {
            descriptor.availability = availability
            guard let tool = tools.first(where: { MCPToolMapping.skillID(prefix: configuration.prefix, tool: $0.name) == descriptor.id })
            else { continue }
            skills.append(MCPToolSkill(descriptor: descriptor, toolName: tool.name, structured: tool.outputSchema != nil, source: self))
        }
        return MCPSkillSet(skills: skills, warnings: warnings)
    }

    /// Calls a tool, starting the server first (and refreshing the cache) when it is not running.
    func call(_ tool: String, arguments: ValueObject, progress: @escaping @Sendable (MCPProgress) -> Void) async throws(MCPClientError)
        -> MCPCallResult
    {
        if await !client.isRunning { _ = try await refreshedTools() }
        return try await client.callTool(tool, arguments: arguments, progress: progress)
    }
}

/// One tool of an MCP server, run as a skill.
struct MCPToolSkill: Skill {
    let descriptor: SkillDescriptor
    let toolName: String
    /// The tool declared an `outputSchema`: the output is its `structuredContent`.
    let structured: Bool
    let source: MCPSkillSource

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let result: MCPCallResult
        do {
            result = try await source.call(toolName, arguments: parameters) { report in
                context.progress(Int(report.progress), Int(report.total ?? 0))
            }
        } catch .cancelled {
            throw CancellationError()
        } catch {
            let kind: FailureKind =
                switch error {
                case .cannotStart: .unavailable
                case .timedOut: .timeout
                default: .skill
                }
            throw SkillError("\(descriptor.id): \(error)", kind: kind)
        }
        if result.isError {
            throw SkillError("\(descriptor.id): " + MCPClientError.toolFailed(tool: toolName, text: result.text).description)
        }
        guard structured else {
            return ["text": .string(result.text), "content": .array(result.content)]
        }
        if let content = result.structuredContent { return content }
        if let parsed = try? JSONText.decode(result.text), parsed.objectValue != nil { return parsed }
        throw SkillError("\(descriptor.id): the tool declares an outputSchema but returned no structuredContent")
    }
}
