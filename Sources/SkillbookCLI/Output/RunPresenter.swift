import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime

/// Shows prepared work while the host runs it: on a terminal a live step list, otherwise each
/// event as a line (JSON lines with `json`); Ctrl-C and SIGTERM interrupt it in the real process.
struct RunPresenter {
    var host: PlaybookHost
    var invocation: Invocation
    var json: Bool

    func perform(_ prepared: PreparedRun) async -> RunResult {
        let console = invocation.console
        // Redrawing in place needs a terminal that understands cursor movement.
        if console.stderrIsTerminal && invocation.environment["TERM"] != "dumb" && !json {
            return await runLive(prepared)
        }
        let events = EventPrinter(console: console, json: json, base: invocation.currentDirectory.path)
        let host = host
        let run: @Sendable () async -> RunResult = { await host.execute(prepared, onEvent: events.print) }
        guard invocation.handlesSignals else { return await run() }
        return await ShutdownSignal.cancellingOnSignal(announce: { _ in Self.announce { console.writeErr("\n\($0)\n") } }, run)
    }

    /// On a terminal: a live step list drawn from a `RunSession` fed by the run's event stream.
    @MainActor
    private func runLive(_ prepared: PreparedRun) async -> RunResult {
        let renderer = LiveRenderer(session: RunSession(playbook: prepared.playbook), console: invocation.console)
        renderer.base = invocation.currentDirectory.path
        // A prompt must not be drawn over: the renderer stops while the question is open.
        var confirmer: (any Confirmer)?
        if case .ask(let asking) = host.configuration.confirmation { confirmer = PausingConfirmer(base: asking, renderer: renderer) }
        let handle = host.start(prepared, confirmer: confirmer)
        let watcher =
            invocation.handlesSignals
            ? ShutdownSignal(onShutdown: { _ in
                Self.announce { text in Task { @MainActor in renderer.printAbove(text) } }
                handle.cancel()
            })
            : nil
        await renderer.run(handle.events)
        let result = await handle.result.value
        watcher?.stop()
        return result
    }

    private static func announce(_ write: (String) -> Void) {
        write("skillbook: interrupted; rolling back (press Ctrl-C again to quit now)")
    }

    /// The exit code of DESIGN.md for a run that ended this way.
    static func exitCode(_ result: RunResult) -> ExitCode {
        if result.interrupted { return .interrupted }
        switch result.status {
        case .succeeded, .succeededWithErrors: return .success
        case .failed, .rolledBack: return .failure
        case .rollbackIncomplete: return .rollbackIncomplete
        case .waiting: return .waitingForApproval
        }
    }

    /// Prints the outputs as JSON on stdout (unless events are JSON lines) and gives the exit code.
    func finish(_ result: RunResult) -> ExitCode {
        if !json, !result.unknownOutputs.isEmpty {
            invocation.console.out(DryRunText.outputs(result))
        } else if !json, !result.outputs.isEmpty {
            invocation.console.out(JSONText.encode(.object(result.outputs), pretty: true))
        }
        if let request = result.approval, result.status == .waiting {
            invocation.console.err(ApprovalText.howToDecide(request))
        }
        return Self.exitCode(result)
    }
}
