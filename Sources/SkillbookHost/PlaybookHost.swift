public import Foundation
public import SkillbookRuntime
public import SkillbookCore
import SkillbookSkills

/// The composition every front end shares: from a `HostConfiguration` it builds the skill
/// registry, finds and checks playbooks, opens the journal, and runs, resumes and rolls back
/// playbooks with the rules of DESIGN.md. A command line, a daemon, an MCP server, an agent or an
/// app each make one and render what it reports.
///
/// A host keeps no state between calls: every call builds what it needs from the configuration,
/// so manifests or playbooks changed on disk are picked up by the next call. The one exception is
/// `mcpServers`: the MCP servers its skills started stay up for later calls, until `shutdown()`.
public struct PlaybookHost: Sendable {
    public let configuration: HostConfiguration
    /// The MCP servers of `mcp:` manifests, shared by every copy of this host (and by other hosts
    /// given the same pool). Whoever makes the host calls `shutdown()` when done.
    public let mcpServers: MCPServerPool

    public init(_ configuration: HostConfiguration, mcpServers: MCPServerPool = MCPServerPool()) {
        self.configuration = configuration
        self.mcpServers = mcpServers
    }

    /// The engine's side effects, from the configuration.
    public var engineEnvironment: EngineEnvironment {
        EngineEnvironment(
            clock: configuration.clock, timeZone: configuration.timeZone, ids: configuration.ids, variables: configuration.environment)
    }

    /// Where the journal and the built-in stores are.
    public var persistence: HostPersistence {
        configuration.persistence ?? .sqlite(stateDirectory: configuration.stateDirectory, clock: configuration.clock)
    }

    /// The run journal (by default the SQLite journal in the state directory).
    public func openJournal() throws(HostError) -> any RunJournal {
        do {
            return try persistence.openJournal()
        } catch {
            throw HostError(error)
        }
    }

    /// The ledger of schedule fires (by default the SQLite ledger in the state directory).
    public func openFireLedger() throws(HostError) -> any HostFireLedger {
        do {
            return try persistence.openFireLedger()
        } catch {
            throw HostError(error)
        }
    }

    /// The ledger of notifications (by default in the SQLite state directory).
    public func openNotificationLedger() throws(HostError) -> any NotificationLedger {
        do {
            return try persistence.openNotificationLedger()
        } catch {
            throw HostError(error)
        }
    }

    /// A path as a person would write it: relative to the configuration's display base when inside it.
    public func displayPath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        guard let base = configuration.displayBase?.standardizedFileURL.path else { return path }
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }

    /// A path given by the user (a playbook file, an inputs file), taken inside the current directory.
    public func file(_ path: String) -> URL {
        HostConfiguration.resolve(path, against: configuration.currentDirectory)
    }
}
