import Foundation
public import SkillbookCore
import SkillbookMCP

/// `skillbook mcp` as a service (see `Service`): serves the workspace's tools over MCP on
/// stdin/stdout (see `WorkspaceToolCatalog`, `WorkspaceToolRunner`) until stdin closes. Graceful
/// shutdown (the first SIGINT or SIGTERM) or cancellation stops the server: running calls are
/// cancelled (their runs roll back) and answered first; then `run()` returns, though stdin is still
/// being read (that read cannot be interrupted, so the process exits then).
public struct MCPService: Service {
    public var host: PlaybookHost
    public var selection: MCPToolSelection
    /// `--yes`: calls that need confirmation run without asking.
    public var approveAll: Bool
    public var version: String
    /// Side notes (stderr); nothing but protocol messages goes to stdout.
    public var log: @Sendable (String) -> Void

    public init(
        host: PlaybookHost, tools selection: MCPToolSelection, approveAll: Bool, version: String,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.host = host
        self.selection = selection
        self.approveAll = approveAll
        self.version = version
        self.log = log
    }

    public func run() async {
        let server = MCPServer(
            catalog: WorkspaceToolCatalog(host: host, selection: selection, log: log),
            runner: WorkspaceToolRunner(host: host, selection: selection),
            configuration: MCPServerConfiguration(version: version, allowsUnconfirmedCalls: approveAll), log: log)
        let (ended, finish) = AsyncStream<Void>.makeStream()
        Task {
            await server.serve(LineChannel.standardStreams())
            finish.yield()
        }
        let stop: @Sendable () -> Void = {
            Task {
                await server.stop()
                finish.yield()
            }
        }
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                for await _ in ended { break }
            } onGracefulShutdown: {
                stop()
            }
        } onCancel: {
            stop()
        }
    }
}
