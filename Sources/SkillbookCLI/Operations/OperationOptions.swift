import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookHost

extension Option where Value == String {
    static var logFormat: Self {
        Self(
            "--log-format", value: "FORMAT",
            help: "text (default) or json: one JSON object per line (time, level, event, message, playbook, run, fields). "
                + "Under systemd (JOURNAL_STREAM set) text lines start with their syslog priority (<3>, <4>, <6>)."
        ).values(.choices(LogFormat.allCases.map(\.rawValue)))
    }
    static var metrics: Self {
        Self(
            "--metrics", value: "ADDR:PORT",
            help: "Serve Prometheus metrics at http://ADDR:PORT/metrics (such as 127.0.0.1:9464; port 0 picks a free one).")
    }
}

/// What `daemon`, `worker`, `serve` (and `mcp`, for its log) share: the log format and the
/// metrics endpoint, read from their options.
struct OperationOptions {
    var log: LogWriter
    var metrics: SkillbookMetrics?
    var metricsAddress: (address: String, port: Int)?

    /// The log as the host's services take it.
    var logger: @Sendable (String) -> Void {
        let log = log
        return { log($0) }
    }

    static let logOptions = [Option.logFormat.spec]
    static let all = [Option.logFormat.spec, Option.metrics.spec]

    /// Reads `--log-format` and, when the command takes it (`metrics`), `--metrics`; a usage error
    /// names a bad value.
    init(_ arguments: ParsedArguments, _ invocation: Invocation, command: String, prefix: String = "skillbook", metrics takesMetrics: Bool = true) throws {
        var format = LogFormat.text
        if let text = arguments[.logFormat] {
            guard let chosen = LogFormat(rawValue: text) else {
                throw UsageError(message: "--log-format expects text or json, got '\(text)'", command: command)
            }
            format = chosen
        }
        log = LogWriter(
            format: format, journald: !(invocation.environment["JOURNAL_STREAM"] ?? "").isEmpty, prefix: prefix, console: invocation.console)
        if takesMetrics, let text = arguments[.metrics] {
            guard let (address, port) = ConsoleSettings.parseListen(text) else {
                throw UsageError(message: "--metrics expects ADDRESS:PORT such as 127.0.0.1:9464 or [::1]:9464, got '\(text)'", command: command)
            }
            metricsAddress = (address, port)
            metrics = SkillbookMetrics(version: SkillbookCLI.version, command: command, started: Self.processStart)
        }
    }

    /// The metrics server to run beside the command's services (none without `--metrics`); it
    /// logs where it listens. The gauges `host` reads from its state at each scrape are declared.
    func metricsServices(host: PlaybookHost) -> [any Service] {
        guard let metrics, let (address, port) = metricsAddress else { return [] }
        host.declareMetricGauges()
        let log = logger
        return [MetricsServer(address: address, port: port, metrics: metrics) { url in log("metrics listening url=\(url)") }]
    }

    /// When this process started (Linux: its `/proc/self/stat` start time; elsewhere: now).
    static let processStart: Date = {
        #if os(Linux)
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let after = stat.range(of: ")", options: .backwards),
            let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
            let sinceBoot = Double(uptime.split(separator: " ").first ?? "")
        {
            let fields = stat[after.upperBound...].split(separator: " ")
            // Field 22 of stat is the start time in clock ticks since boot; `fields` starts at field 3.
            if fields.count > 19, let ticks = Double(fields[19]) {
                let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
                return Date(timeIntervalSinceNow: -(sinceBoot - ticks / hertz))
            }
        }
        #endif
        return Date()
    }()
}
