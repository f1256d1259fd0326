import Foundation
public import SkillbookCore

/// Whether the process holding a lease still runs.
public enum ProcessState: Sendable, Hashable {
    case alive
    /// It is known to have ended; the text says how that is known.
    case gone(String)
    /// It runs on another machine: only its heartbeat can tell.
    case unknown
}

/// Finds the current process's identity and checks others', injectable for tests.
public struct ProcessProbe: Sendable {
    public var current: @Sendable () -> ProcessIdentity
    public var state: @Sendable (ProcessIdentity) -> ProcessState

    public init(
        current: @escaping @Sendable () -> ProcessIdentity, state: @escaping @Sendable (ProcessIdentity) -> ProcessState
    ) {
        self.current = current
        self.state = state
    }

    /// The real process table: `kill(pid, 0)` and, on Linux, `/proc` (zombies, reused pids, reboots).
    public static let live: ProcessProbe = {
        let host = ProcessInfo.processInfo.hostName
        let boot = readBootID()
        let pid = getpid()
        let me = ProcessIdentity(pid: pid, host: host, boot: boot, start: processStart(pid))
        return ProcessProbe(current: { me }, state: { other in liveState(of: other, host: host, boot: boot) })
    }()

    static func liveState(of holder: ProcessIdentity, host: String, boot: String?) -> ProcessState {
        guard holder.host == host else { return .unknown }
        if let boot, let theirs = holder.boot, boot != theirs {
            return .gone("the machine has restarted since process \(holder.pid) took the run")
        }
        if kill(holder.pid, 0) != 0 && errno == ESRCH {
            return .gone("process \(holder.pid) is gone")
        }
        #if os(Linux)
            if let stat = procStat(holder.pid) {
                if stat.state == "Z" || stat.state == "X" { return .gone("process \(holder.pid) has exited") }
                if let start = holder.start, start != stat.start {
                    return .gone("process \(holder.pid) is gone (its id now belongs to another process)")
                }
            }
        #endif
        return .alive
    }

    static func readBootID() -> String? {
        #if os(Linux)
            guard let text = readProcFile("/proc/sys/kernel/random/boot_id") else { return nil }
            // Trimmed as bytes: `trimmingCharacters(in:)` goes through NSString, and reversed views
            // of a substring are generic types the runtime makes on first use; both are costly at start-up.
            let id = String(decoding: text.utf8.filter { $0 > 0x20 }, as: UTF8.self)
            return id.isEmpty ? nil : id
        #else
            return nil
        #endif
    }

    static func processStart(_ pid: Int32) -> String? {
        #if os(Linux)
            return procStat(pid)?.start
        #else
            return nil
        #endif
    }

    /// The text of a small `/proc` file (whose size `stat` reports as 0), read to its end with
    /// `read(2)`: Foundation's `String(contentsOfFile:)` costs more at start-up than the rest of the probe.
    static func readProcFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The state letter and start time of `/proc/PID/stat`. The command name (field 2) is in
    /// parentheses and may itself contain spaces and parentheses: fields are counted after the last ')'.
    static func procStat(_ pid: Int32) -> (state: String, start: String)? {
        guard let text = readProcFile("/proc/\(pid)/stat"),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
        guard fields.count > 19 else { return nil }
        return (String(fields[0]), String(fields[19]))
    }
}
