import SkillbookCore
import Foundation
import Synchronization

/// A server process started through the `ProcessRunning` port: its stdio as a `LineTransport`,
/// its stderr tail, and how it ended.
///
/// The port gives it a clean environment and a process group of its own. `shutdown` follows
/// the stdio transport: close stdin, wait, then `terminate` (SIGTERM to the group, SIGKILL
/// after the grace period), and wait for the end.
final class ServerProcess: Sendable {
    private struct ExitState {
        var status: String?
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<String?, Never>] = [:]
    }

    let running: any RunningProcess
    let transport: ProcessLineTransport
    let command: String
    private let exit = Mutex(ExitState())

    private init(running: any RunningProcess, command: String) {
        self.running = running
        self.command = command
        transport = ProcessLineTransport(running)
    }

    /// Starts `command`; throws `.cannotStart` when the program is missing or cannot run.
    static func start(_ command: MCPServerCommand, processes: any ProcessRunning) async throws(MCPClientError) -> ServerProcess {
        let request = ProcessRequest(
            command.arguments, workingDirectory: command.workingDirectory, environment: command.environment,
            outputLimit: 64 << 20, killGracePeriod: command.shutdownGrace)
        let running: any RunningProcess
        do {
            running = try await processes.start(request)
        } catch ProcessRunnerError.commandNotFound(let name, _) {
            throw .cannotStart(command: command.display, reason: "'\(name)' is not on PATH")
        } catch {
            throw .cannotStart(command: command.display, reason: "\(error)")
        }
        let process = ServerProcess(running: running, command: command.display)
        Task { process.ended(await running.exit().description) }
        return process
    }

    private func ended(_ status: String) {
        let waiters = exit.withLock { exit in
            exit.status = status
            defer { exit.waiters = [:] }
            return Array(exit.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// How it ended, once it has; `nil` while it runs.
    var exitStatus: String? { exit.withLock { $0.status } }

    /// The end of what it wrote on stderr, trimmed.
    var stderr: String { running.errorTail.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Waits up to `seconds` (for ever when `nil`) for it to end; its status, or `nil` if it still runs.
    func waitForExit(seconds: Double?) async -> String? {
        let id = exit.withLock { exit in
            defer { exit.nextWaiter += 1 }
            return exit.nextWaiter
        }
        let timer = seconds.map { seconds in
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                let waiter = self.exit.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume(returning: nil)
            }
        }
        defer { timer?.cancel() }
        return await withCheckedContinuation { continuation in
            let done = exit.withLock { exit -> String? in
                if let status = exit.status { return status }
                exit.waiters[id] = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Close stdin, wait `grace`; then SIGTERM to its group and SIGKILL after the grace period.
    /// Returns how it ended.
    @discardableResult
    func shutdown(grace: Double) async -> String {
        transport.closeOutput()
        if let status = await waitForExit(seconds: grace) { return status }
        running.terminate()
        return await waitForExit(seconds: nil) ?? "was stopped"
    }

    /// Stops it and its process group now.
    func terminate() {
        running.terminate()
    }
}
