import Foundation
public import SkillbookHost
import SkillbookCore

/// The web console over a host: the pages, their assets, and the JSON API, behind the access
/// rules of `ConsoleAccess`. `run()` serves until its task is cancelled, then stops gracefully:
/// no new connections, the event streams end, runs started here are interrupted (they roll back
/// what they completed, as Ctrl-C would), and it returns once every connection has closed.
public final class ConsoleServer: Sendable {
    public let host: PlaybookHost
    public let settings: ConsoleSettings
    let hub = EventHub()
    let local = LocalRuns()
    private let onReady: @Sendable (_ loginURL: String) -> Void

    /// `onReady` is called with the login URL (the token in it) once the server listens.
    public init(host: PlaybookHost, settings: ConsoleSettings, onReady: @escaping @Sendable (_ loginURL: String) -> Void = { _ in }) {
        self.host = host
        self.settings = settings
        self.onReady = onReady
    }

    /// Listens, reports the login URL, and serves until cancelled; then stops gracefully and
    /// returns (the shape of a service in a service group).
    public func run() async throws {
        let router = ConsoleRouter(api: ConsoleAPI(host: host, hub: hub, local: local))
        let server = try HTTPServer(address: settings.address, port: settings.port, limits: settings.limits) { request in
            await router.respond(request)
        }
        router.access.setValue(ConsoleAccess(settings: settings, port: server.port))
        let shownHost = settings.address.contains(":") ? "[\(settings.address)]" : settings.address
        onReady("http://\(shownHost):\(server.port)/login?token=\(settings.token)")

        let host = host
        let hub = hub
        let poller = Task {
            await JournalPoller(journal: { try host.openJournal() }, hub: hub, isLocal: { [local] in local.contains($0) })
                .run(every: settings.pollInterval)
        }
        // Until cancelled (the sleep ends at once then): no wake-ups while idle.
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
        }
        server.stopAccepting()
        poller.cancel()
        await local.interruptAll()
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
