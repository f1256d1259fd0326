import CPeakRSS
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cold_start`: whole `skillbook` processes, each timed from spawn to `wait4` and divided by the
/// floor, `skillbook-floor` (Foundation, the static Swift runtime, one line), measured in the same
/// run. The processes take turns (floor, `--version`, `validate`, a run), so machine load falls on
/// all alike; each figure is the median of `runs`. Peak RSS is the largest of `memoryRuns` more
/// runs of each, measured apart: on Linux the high-water mark of the child's own memory, read as it
/// exits (`CPeakRSS`), since `wait4`'s `ru_maxrss` counts the pages of the parent it was started
/// from (16 MB of the bench's for every child, the floor included); elsewhere `ru_maxrss`.
///
/// - `cold_start_version`: `skillbook --version` (target ≤ 1.5× the floor);
/// - `cold_start_validate`: `skillbook validate` of the shipped playbooks (≤ 2.5×);
/// - `cold_start_run`: `skillbook run` of a 1-step `notes.create` playbook with the journal (≤ 4×).
///
/// The binaries are the ones next to the bench (build them in release: `make bench`);
/// `SKILLBOOK_BIN` names another `skillbook` to measure against the same floor.
struct ColdStartBench {
    var runs = 21
    var memoryRuns = 3
    var state: URL

    struct Sample {
        var seconds: [Double] = []
        var peakKilobytes = 0
    }

    func run() throws -> [Figure] {
        let skillbook = try Self.skillbookBinary()
        let floor = try Self.binary(named: "skillbook-floor")
        // The shipped playbooks with their manifest skills (`Skills/`), as from the repository's root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let playbooks = root.appendingPathComponent("Playbooks").path
        let previous = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(root.path) else {
            throw BenchError("cold_start: cannot enter the repository at \(root.path)")
        }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let work = state.appendingPathComponent("cold-start")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let playbook = work.appendingPathComponent("one-note.yaml")
        try Data(
            """
            name: one-note
            description: One note.
            steps:
              - id: save
                skill: notes.create
                with: { title: "cold start", body: "one step" }

            """.utf8
        ).write(to: playbook)
        let cases: [(name: String, arguments: [String])] = [
            ("floor", [floor]),
            ("version", [skillbook, "--version"]),
            ("validate", [skillbook, "validate", playbooks]),
            ("run", [skillbook, "run", playbook.path, "--state", work.appendingPathComponent("state").path]),
        ]
        var samples = Array(repeating: Sample(), count: cases.count)
        for round in 0..<(runs + 2) {
            for (index, item) in cases.enumerated() {
                let (seconds, kilobytes) = try Self.spawn(item.arguments)
                guard round >= 2 else { continue }  // two warm-up rounds: page cache, the state's database
                samples[index].seconds.append(seconds)
                samples[index].peakKilobytes = max(samples[index].peakKilobytes, kilobytes)
            }
        }
        for (index, item) in cases.enumerated() {
            var peaks: [Int] = []
            for _ in 0..<memoryRuns {
                guard let kilobytes = try Self.ownPeakKilobytes(item.arguments) else { break }
                peaks.append(kilobytes)
            }
            if let peak = peaks.max() { samples[index].peakKilobytes = peak }
        }
        let floorMedian = Self.median(samples[0].seconds)
        var figures = [
            Figure(name: "cold_start_floor", value: floorMedian * 1000, unit: "ms"),
            Figure(name: "cold_start_floor_rss", value: Double(samples[0].peakKilobytes) / 1024, unit: "MB"),
        ]
        for (index, item) in cases.enumerated().dropFirst() {
            let median = Self.median(samples[index].seconds)
            figures.append(Figure(name: "cold_start_\(item.name)", value: median / floorMedian, unit: "x_floor"))
            figures.append(Figure(name: "cold_start_\(item.name)_ms", value: median * 1000, unit: "ms"))
            figures.append(
                Figure(name: "cold_start_\(item.name)_rss", value: Double(samples[index].peakKilobytes) / 1024, unit: "MB"))
        }
        return figures
    }

    /// The release `skillbook` next to the bench, or the one `SKILLBOOK_BIN` names.
    static func skillbookBinary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["SKILLBOOK_BIN"] { return try checked(path) }
        return try binary(named: "skillbook")
    }

    /// An executable next to the bench.
    static func binary(named name: String) throws -> String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        return try checked(directory.appendingPathComponent(name).path)
    }

    private static func checked(_ path: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("no executable \(path) (build it: make bench, or swift build -c release)")
        }
        return path
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Runs one process with its output discarded; its own peak RSS (KiB), or nil where that
    /// cannot be read (not Linux, or tracing children is not allowed).
    static func ownPeakKilobytes(_ arguments: [String], accepting accepted: (Int32) -> Bool = { $0 == 0 }) throws -> Int? {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var peak = 0
        var status: Int32 = 0
        let failure = skb_run_measuring_peak_rss(arguments[0], argv, environ, &peak, &status)
        if failure == ENOSYS || failure == EPERM { return nil }  // no ptrace here: wait4's figure stands
        guard failure == 0 else { throw BenchError("cold_start: cannot run \(arguments[0]): \(String(cString: strerror(failure)))") }
        guard accepted(status) else { throw BenchError("cold_start: '\(arguments.joined(separator: " "))' exited with status \(status)") }
        guard peak > 0 else { throw BenchError("cold_start: no peak memory read for \(arguments[0])") }
        return peak
    }

    /// Runs one process with its output discarded; its wall time and `wait4`'s peak RSS (KiB).
    static func spawn(_ arguments: [String], accepting accepted: (Int32) -> Bool = { $0 == 0 }) throws -> (seconds: Double, kilobytes: Int) {
        let usage = try spawnUsage(arguments, accepting: accepted)
        return (usage.seconds, usage.kilobytes)
    }

    /// Runs one process with its output discarded; its wall time, its CPU time (user and system)
    /// and `wait4`'s peak RSS (KiB).
    static func spawnUsage(
        _ arguments: [String], accepting accepted: (Int32) -> Bool = { $0 == 0 }
    ) throws -> (seconds: Double, cpu: Double, kilobytes: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        // No signal blocked and SIGPIPE at its default in the child, whatever this thread has.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw BenchError("cold_start: cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("cold_start: wait4 failed for \(arguments[0])") }
        }
        let seconds = (clock.now - start).seconds
        guard accepted(status) else { throw BenchError("cold_start: '\(arguments.joined(separator: " "))' exited with status \(status)") }
        // ru_maxrss is in KiB on Linux, in bytes on Darwin.
        #if canImport(Darwin)
            let kilobytes = Int(usage.ru_maxrss) / 1024
        #else
            let kilobytes = Int(usage.ru_maxrss)
        #endif
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) * 1e-6 }
        return (seconds, cpu, kilobytes)
    }
}
