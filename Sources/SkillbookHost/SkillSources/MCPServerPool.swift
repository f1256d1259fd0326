import SkillbookMCP
import SkillbookCore
import Synchronization

/// The MCP servers declared by manifests (`mcp:`) that one process uses: one `MCPSkillSource`
/// (one client, at most one server process) per declaration, shared by every registry a host
/// builds, so the skills of one manifest share one server for as long as the process runs.
///
/// Semantics: a source is made when a registry first needs it and never starts a server by
/// itself; its server starts when its tools are listed (no cached list yet) or on the first call
/// of one of its skills, and runs until `shutdown()`. The owner — whoever made the host, such as
/// the command line for one invocation — must call `shutdown()` when done: it stops every server
/// as the stdio transport says (close stdin, wait, SIGTERM, SIGKILL). A pool can be used again
/// after `shutdown()`: a later call starts its server afresh.
public final class MCPServerPool: Sendable {
    private struct State {
        var sources: [MCPSourceConfiguration: MCPSkillSource] = [:]
        /// Why the last listing of a server's tools failed, until one succeeds.
        var failures: [MCPSourceConfiguration: MCPClientError] = [:]
    }

    private let state = Mutex(State())
    private let log: @Sendable (String) -> Void

    /// `log` hears what goes wrong on the side (a line a server wrote that is not JSON-RPC, a
    /// cache file that cannot be written, how a server ended).
    public init(log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.log = log
    }

    /// The source of `configuration`, made on first use with `processes` and the cache in `cacheDirectory`.
    func source(
        for configuration: MCPSourceConfiguration, processes: @autoclosure () -> any ProcessRunning, cacheDirectory: String
    ) -> MCPSkillSource {
        state.withLock { state in
            if let source = state.sources[configuration] { return source }
            let source = MCPSkillSource(configuration, processes: processes(), cacheDirectory: cacheDirectory, log: log)
            state.sources[configuration] = source
            return source
        }
    }

    /// Lists the tools of `source` (starting its server), which rewrites its cache; a failure is
    /// kept for `listingFailure(of:)`.
    func list(_ source: MCPSkillSource) async {
        do {
            _ = try await source.loadSkills()
            _ = state.withLock { $0.failures.removeValue(forKey: source.configuration) }
        } catch {
            state.withLock { $0.failures[source.configuration] = error }
        }
    }

    /// Why listing the tools of `source` failed last, if it did.
    func listingFailure(of source: MCPSkillSource) -> MCPClientError? {
        state.withLock { $0.failures[source.configuration] }
    }

    /// Stops every server that runs, all at once, and waits until each has ended.
    public func shutdown() async {
        let sources = state.withLock { Array($0.sources.values) }
        await withTaskGroup(of: Void.self) { group in
            for source in sources { group.addTask { await source.shutdown() } }
        }
    }
}
