import Foundation

/// A process on a machine, as a run's lease names its holder.
public struct ProcessIdentity: Sendable, Hashable {
    public var pid: Int32
    public var host: String
    /// The machine's current boot (Linux: `/proc/sys/kernel/random/boot_id`); `nil` when unknown.
    /// A different boot on the same host means every process of the lease's boot has ended.
    public var boot: String?
    /// When the process started (Linux: field 22 of `/proc/PID/stat`, clock ticks since boot);
    /// tells a pid reused by a later process apart from the one that took the lease.
    public var start: String?

    public init(pid: Int32, host: String, boot: String? = nil, start: String? = nil) {
        self.pid = pid
        self.host = host
        self.boot = boot
        self.start = start
    }
}
