import Foundation
import SkillbookMCP

extension PlaybookHost {
    /// Serves the workspace's tools over MCP on stdin/stdout until stdin closes (see
    /// `WorkspaceToolCatalog`, `WorkspaceToolRunner`). The first SIGINT or SIGTERM stops the
    /// server: running calls are cancelled (their runs roll back) and answered first.
    ///
    /// - Parameters:
    ///   - approveAll: `--yes`: calls that need confirmation run without asking.
    ///   - log: side notes (stderr); nothing but protocol messages goes to stdout.
    public func serveMCP(
        tools selection: MCPToolSelection, approveAll: Bool, version: String, log: @escaping @Sendable (String) -> Void
    ) async {
        let server = MCPServer(
            catalog: WorkspaceToolCatalog(host: self, selection: selection, log: log),
            runner: WorkspaceToolRunner(host: self, selection: selection),
            configuration: MCPServerConfiguration(version: version, allowsUnconfirmedCalls: approveAll), log: log)
        // Returns when stdin closes, or once a signal stopped the server: the read of stdin
        // cannot be interrupted, so the caller exits then.
        let (ended, finish) = AsyncStream<Void>.makeStream()
        let signal = ShutdownSignal(onShutdown: { number in
            log("signal \(number): stopping")
            Task {
                await server.stop()
                finish.yield()
            }
        })
        Task {
            await server.serve(LineChannel.standardStreams())
            finish.yield()
        }
        for await _ in ended { break }
        signal.stop()
    }
}
