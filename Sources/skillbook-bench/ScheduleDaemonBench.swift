import Foundation
import SkillbookSQLite
import SkillbookSQL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `schedule`: the real `skillbook daemon` (the release binary next to the bench, or `SKILLBOOK_BIN`)
/// in a workspace of generated playbooks.
///
/// - `schedule_fire_latency_p50`/`_p99`: four `every: 1s` playbooks (one `debug.echo` step each)
///   for `SKILLBOOK_BENCH_FIRE_SECONDS` (default 15); each run's journal `started` minus its
///   `scheduled_at` (target p50 ≤ 50 ms, p99 ≤ 500 ms); `schedule_fires` counts the runs measured.
/// - `schedule_idle_cpu`: 100 playbooks scheduled once a year, so the daemon only sleeps (and wakes
///   once a minute); its CPU time (utime + stime from `/proc`) over `SKILLBOOK_BENCH_IDLE_SECONDS`
///   (default 60; the figure is for 600) after a 2 s settle, as a percentage of one core
///   (target ≤ 0.1 %), and `schedule_idle_rss` its peak RSS (VmHWM, target ≤ 30 MB).
struct ScheduleDaemonBench {
    var state: URL

    func run() throws -> [Figure] {
        let skillbook = try ColdStartBench.skillbookBinary()
        let environment = ProcessInfo.processInfo.environment
        let fireSeconds = environment["SKILLBOOK_BENCH_FIRE_SECONDS"].flatMap(Double.init) ?? 15
        let idleSeconds = environment["SKILLBOOK_BENCH_IDLE_SECONDS"].flatMap(Double.init) ?? 60
        return try fireLatency(skillbook: skillbook, seconds: fireSeconds)
            + idle(skillbook: skillbook, seconds: idleSeconds)
    }

    private func fireLatency(skillbook: String, seconds: Double) throws -> [Figure] {
        let workspace = try makeWorkspace(named: "fires", count: 4, schedule: "every: 1s")
        let daemon = try DaemonProcess(skillbook: skillbook, workspace: workspace)
        Thread.sleep(forTimeInterval: seconds)
        try daemon.stop()
        let database = try StateDatabase.open(stateDirectory: workspace.appendingPathComponent("state"))
        let rows = try database.query(
            "SELECT started - scheduled_at AS late FROM runs WHERE scheduled_at IS NOT NULL")
        let latencies = rows.compactMap { $0.double("late") }.sorted()
        guard !latencies.isEmpty else {
            throw BenchError(
                "schedule: the daemon started no run in \(seconds) s (log: \(daemon.log.path))")
        }
        func percentile(_ share: Double) -> Double {
            latencies[min(latencies.count - 1, Int(Double(latencies.count) * share))]
        }
        return [
            Figure(name: "schedule_fires", value: Double(latencies.count), unit: "runs"),
            Figure(name: "schedule_fire_latency_p50", value: percentile(0.5) * 1000, unit: "ms"),
            Figure(name: "schedule_fire_latency_p99", value: percentile(0.99) * 1000, unit: "ms"),
        ]
    }

    private func idle(skillbook: String, seconds: Double) throws -> [Figure] {
        let workspace = try makeWorkspace(named: "idle", count: 100, schedule: "cron: \"0 4 1 1 *\"")
        let daemon = try DaemonProcess(skillbook: skillbook, workspace: workspace)
        Thread.sleep(forTimeInterval: 2)
        let before = try daemon.cpuSeconds()
        Thread.sleep(forTimeInterval: seconds)
        let used = try daemon.cpuSeconds() - before
        let peak = try daemon.peakMegabytes()
        try daemon.stop()
        return [
            Figure(name: "schedule_idle_seconds", value: seconds, unit: "s"),
            // Two decimals would be lost to `Figure`'s rounding: print hundredths of a percent.
            Figure(name: "schedule_idle_cpu", value: used / seconds * 100 * 100, unit: "0.01%_core"),
            Figure(name: "schedule_idle_rss", value: peak, unit: "MB"),
        ]
    }

    /// A workspace with `count` one-step playbooks under `schedule`, and its own state folder.
    private func makeWorkspace(named name: String, count: Int, schedule: String) throws -> URL {
        let workspace = state.appendingPathComponent("schedule-\(name)")
        let playbooks = workspace.appendingPathComponent("Playbooks")
        try FileManager.default.createDirectory(at: playbooks, withIntermediateDirectories: true)
        for index in 0..<count {
            let playbook = "tick-\(index)"
            try Data(
                """
                name: \(playbook)
                description: A scheduled no-op for the bench.
                schedule:
                  \(schedule)
                  timezone: UTC
                steps:
                  - id: echo
                    skill: debug.echo
                    with: { value: \(index) }

                """.utf8
            ).write(to: playbooks.appendingPathComponent("\(playbook).yaml"))
        }
        return workspace
    }
}

/// One `skillbook daemon` child on a workspace, its stderr in `log`.
private struct DaemonProcess {
    let process = Process()
    let log: URL

    init(skillbook: String, workspace: URL) throws {
        log = workspace.appendingPathComponent("daemon.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: skillbook)
        process.arguments = [
            "daemon", "--grace", "5s", "--state", workspace.appendingPathComponent("state").path,
        ]
        process.currentDirectoryURL = workspace
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
    }

    func stop() throws {
        process.terminate()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError(
                "schedule: the daemon exited with \(process.terminationStatus) (log: \(log.path))")
        }
    }

    /// User plus system CPU seconds of the daemon so far (`/proc/PID/stat` fields 14 and 15).
    func cpuSeconds() throws -> Double {
        let text = try String(
            contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = text.lastIndex(of: ")") else {
            throw BenchError("schedule: unreadable /proc stat")
        }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); utime is field 14, stime field 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("schedule: unreadable /proc stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The daemon's peak resident set (`VmHWM`), in MB.
    func peakMegabytes() throws -> Double {
        let text = try String(
            contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { throw BenchError("schedule: no VmHWM in /proc status") }
        return kilobytes / 1024
    }
}
