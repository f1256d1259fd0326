import Foundation
import SkillbookCore
import SkillbookHost

/// What the long-running commands (`daemon`, `worker`, `mcp`) share: their services run in one
/// `ServiceGroup`, which in the real process turns the first SIGTERM or SIGINT into graceful
/// shutdown and a second one, or the end of the grace period, into cancellation.
extension Invocation {
    /// Runs `services` until they return; exit code 130 when a second signal cut them short.
    func runServices(
        _ services: [any Service], grace: Double, onEvent: @escaping @Sendable (ServiceGroup.Event) -> Void = { _ in }
    ) async throws -> ExitCode {
        let group = ServiceGroup(
            services: services, gracePeriod: grace, signals: handlesSignals ? [SIGTERM, SIGINT] : [], onEvent: onEvent)
        return try await group.run() == .interrupted ? .interrupted : .success
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(number)"
        }
    }
}
