public import Foundation
public import SkillbookCore

/// Runs services (the daemon, a worker, the MCP server, the console) side by side and stops them
/// together, as swift-service-lifecycle's group does:
/// - the first of the watched signals (SIGTERM, SIGINT) asks every service for graceful shutdown;
/// - a second signal, or the grace period running out after shutdown was asked, cancels them;
/// - a service that returns or throws on its own shuts the others down gracefully (a thrown error
///   is rethrown once all have stopped).
///
/// The signal handling is installed once, by the group, before any service starts: a signal that
/// arrives as a service begins is never lost. `run()` returns when every service has returned.
public struct ServiceGroup: Sendable {
    /// Why the group was asked to stop, and how it ended.
    public enum Ending: Sendable, Equatable {
        /// Every service returned without shutdown being asked.
        case finished
        /// Shutdown was asked (a signal, `shutdown`, or a service that ended) and the services
        /// stopped gracefully or at the end of the grace period.
        case shutDown
        /// A second signal cancelled the services.
        case interrupted
    }

    /// What the group tells the services' log: a signal that asked for graceful shutdown, one that
    /// cancelled them, the grace period that ran out, a service that ended first.
    public enum Event: Sendable, Equatable {
        case gracefulShutdown(signal: Int32)
        case cancelled(signal: Int32)
        case graceOver
        case serviceEnded(index: Int, error: String?)
    }

    public var services: [any Service]
    /// Seconds between graceful shutdown and cancellation.
    public var gracePeriod: Double
    /// The signals that stop the group; none: only `shutdown` and the services' own ends do.
    public var signals: [Int32]
    public var onEvent: @Sendable (Event) -> Void
    private let control = Control()

    public init(
        services: [any Service], gracePeriod: Double, signals: [Int32] = [SIGTERM, SIGINT],
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.services = services
        self.gracePeriod = gracePeriod
        self.signals = signals
        self.onEvent = onEvent
    }

    /// Asks for graceful shutdown, as the first signal does (the grace period starts).
    public func shutdown() {
        control.send(.shutdown)
    }

    /// Runs every service until all have returned; rethrows the first error a service threw. A
    /// group runs once.
    @discardableResult
    public func run() async throws -> Ending {
        if services.isEmpty { return .finished }
        let control = control
        let watcher =
            signals.isEmpty
            ? nil
            : ShutdownSignal(
                signals: signals, onShutdown: { control.send(.signal($0)) }, onRepeat: { control.send(.signal($0)) })
        defer { watcher?.stop() }
        let shutdown = GracefulShutdown()
        let services = services
        let gracePeriod = gracePeriod
        let onEvent = onEvent
        let (ending, failure) = await withTaskGroup(of: Void.self, returning: (Ending, (any Error)?).self) { group in
            for (index, service) in services.enumerated() {
                group.addTask {
                    do {
                        try await GracefulShutdown.$current.withValue(shutdown) { try await service.run() }
                        control.send(.ended(index, nil))
                    } catch {
                        control.send(.ended(index, error))
                    }
                }
            }
            var running = services.count
            var ending = Ending.finished
            var failure: (any Error)?
            var cancelled = false
            var timer: Task<Void, Never>?
            func beginShutdown() {
                guard !shutdown.isRequested else { return }
                ending = .shutDown
                shutdown.request()
                timer = Task {
                    try? await Task.sleep(for: .seconds(gracePeriod))
                    if !Task.isCancelled { control.send(.graceOver) }
                }
            }
            func cancel() {
                guard !cancelled else { return }
                cancelled = true
                group.cancelAll()
            }
            for await message in control.messages {
                switch message {
                case .signal(let number):
                    if !shutdown.isRequested {
                        onEvent(.gracefulShutdown(signal: number))
                        beginShutdown()
                    } else if !cancelled {
                        onEvent(.cancelled(signal: number))
                        ending = .interrupted
                        cancel()
                    }
                case .shutdown:
                    beginShutdown()
                case .graceOver:
                    if !cancelled {
                        onEvent(.graceOver)
                        cancel()
                    }
                case .ended(let index, let error):
                    running -= 1
                    if let error, failure == nil { failure = error }
                    if !shutdown.isRequested, running > 0 {
                        onEvent(.serviceEnded(index: index, error: error.map { "\($0)" }))
                        beginShutdown()
                    }
                }
                if running == 0 { break }
            }
            // Cancelled from outside: the services were cancelled with this task.
            timer?.cancel()
            await group.waitForAll()
            return (ending, failure)
        }
        if let failure { throw failure }
        return ending
    }

    /// Messages to the group's loop, from signal handlers, services and the timer.
    private final class Control: Sendable {
        enum Message: Sendable {
            case signal(Int32)
            case shutdown
            case graceOver
            case ended(Int, (any Error)?)
        }

        let messages: AsyncStream<Message>
        private let continuation: AsyncStream<Message>.Continuation

        init() {
            (messages, continuation) = AsyncStream<Message>.makeStream()
        }

        func send(_ message: Message) {
            continuation.yield(message)
        }
    }
}
