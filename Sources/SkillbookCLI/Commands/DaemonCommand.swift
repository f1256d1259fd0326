import Foundation
import SkillbookCore
import SkillbookHost

extension Option where Value == String {
    static var grace: Self {
        Self("--grace", value: "DURATION", help: "On SIGTERM/SIGINT, how long running runs may go on before they are cancelled (default 30s).")
    }
}

/// `skillbook daemon [--grace 30s]`: fires the workspace's schedules until SIGTERM or SIGINT.
enum DaemonCommand: Command {
    static let spec = CommandSpec(
        name: "daemon", summary: "Run the workspace's scheduled playbooks at their times until stopped (SIGTERM or Ctrl-C).",
        arguments: "", options: [Option.grace.spec] + OperationOptions.all,
        discussion: """
            Sleeps until the next fire (waking at least once a minute to notice suspend and clock jumps) and starts
            each fire as a run with trigger 'schedule'; a changed playbook file is reloaded, a broken one reported
            without dropping the others. One daemon per state directory: a second exits 2 at once, naming the
            first one's pid (<state>/daemon.pid). On SIGTERM or SIGINT it starts no more fires, lets running runs
            finish for the grace period, then cancels them (they roll back), and exits 0. One plain log line per
            event on stderr ('fire started', 'run finished', 'playbook broken', 'daemon stopped', ...), or one JSON
            object per line with --log-format json. --metrics serves runs, steps and fires for Prometheus.
            """,
        examples: [
            "skillbook daemon", "skillbook daemon --grace 2m --state ~/.local/state/skillbook",
            "skillbook daemon --log-format json --metrics 127.0.0.1:9464",
        ])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        var grace = 30.0
        if let text = arguments[.grace] {
            guard let seconds = DurationText.seconds(text), seconds >= 0 else {
                throw UsageError(message: "--grace expects a duration such as 30s or 2m, got '\(text)'", command: spec.name)
            }
            grace = seconds
        }
        let operations = try OperationOptions(arguments, invocation, command: spec.name)
        let host = try invocation.host(arguments, metrics: operations.metrics)
        let log = operations.logger
        let lock: DaemonLock
        do {
            lock = try DaemonLock(stateDirectory: host.configuration.stateDirectory)
        } catch .held(let pid, let file) {
            throw CommandFailure("another skillbook daemon (pid \(pid)) is running on this state (\(file)); stop it first", exitCode: .usage)
        } catch .unavailable(let file, let reason) {
            throw CommandFailure("cannot create \(file): \(reason)", exitCode: .usage)
        }
        let service = try ScheduleService(host: host, grace: grace, log: log)
        log("daemon started pid=\(getpid()) state=\(host.configuration.stateDirectory.path)")
        let code = try await invocation.runServices([service] + operations.metricsServices(host: host), grace: grace) { event in
            switch event {
            case .gracefulShutdown(let number): log("daemon signal=\(Invocation.signalName(number)): no more fires")
            case .cancelled: log("daemon second signal: cancelling running runs")
            case .graceOver, .serviceEnded: break
            }
        }
        withExtendedLifetime(lock) {}
        return code
    }
}
