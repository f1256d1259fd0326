import Foundation
public import SkillbookHost
public import SkillbookCore

/// The web console over a host: the pages, their assets, and the JSON API, behind the access
/// rules of `ConsoleAccess`. A `Service`: `run()` serves until graceful shutdown is asked (or its
/// task is cancelled), then stops:
/// no new connections, the event streams end, runs started here are interrupted (they roll back
/// what they completed, as Ctrl-C would), and it returns once every connection has closed.
public final class ConsoleServer: Service {
    public let host: PlaybookHost
    public let settings: ConsoleSettings
    let hub = EventHub()
    let local = LocalRuns()
    let chats = ConsoleChats()
    private let listening = Late<Int>()
    /// The port it listens on once ready (0 before): the one asked for, or the free one it got for 0.
    public var boundPort: Int { listening.value ?? 0 }
    private let onReady: @Sendable (_ loginURL: String) -> Void

    /// `onReady` is called with the login URL (the token in it) once the server listens.
    public init(host: PlaybookHost, settings: ConsoleSettings, onReady: @escaping @Sendable (_ loginURL: String) -> Void = { _ in }) {
        self.host = host
        self.settings = settings
        self.onReady = onReady
    }

    /// Listens, reports the login URL, and serves until shutdown is asked or the task is
    /// cancelled; then stops gracefully and returns.
    public func run() async throws {
        let router = ConsoleRouter(api: ConsoleAPI(host: host, hub: hub, local: local, chats: chats, firesSchedules: settings.firesSchedules))
        let metrics = host.configuration.metrics
        metrics?.registry.declare(SkillbookMetrics.httpRequests)
        let server: HTTPServer
        do {
            server = try HTTPServer(address: settings.address, port: settings.port, limits: settings.limits) { request in
                let response = await router.respond(request)
                metrics?.httpRequest(method: request.method, code: response.status)
                return response
            }
        } catch {
            throw HTTPServerError(message: "--listen \(HTTPServer.hostText(settings.address)):\(settings.port): \(error.message)")
        }
        router.access.setValue(ConsoleAccess(settings: settings, port: server.port))
        listening.setValue(server.port)
        let base = settings.publicURL?.origin ?? "http://\(HTTPServer.hostText(settings.address)):\(server.port)"
        onReady("\(base)/login?token=\(settings.token)")

        let host = host
        let hub = hub
        let poller = Task {
            await JournalPoller(journal: { try host.openJournal() }, hub: hub, isLocal: { [local] in local.contains($0) })
                .run(every: settings.pollInterval)
        }
        // Until the group asks for shutdown or the task is cancelled: no wake-ups while idle.
        await GracefulShutdown.requested()
        server.stopAccepting()
        poller.cancel()
        await local.interruptAll()
        await chats.interruptAll()
        hub.finishAll()
        // Waiting for the connections blocks: on a thread of its own, not the cooperative pool
        // (whose threads the requests still in flight need).
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                server.stop()
                continuation.resume()
            }.start()
        }
        _ = await poller.value
        await host.shutdown()
    }
}
