/// How often a holder renews the lease of a run and how long a lease lasts without renewal.
public struct LeaseSettings: Sendable, Hashable {
    /// Seconds between heartbeats (default 5).
    public var heartbeatInterval: Double
    /// Seconds a lease lasts after its last heartbeat (default 15).
    public var leaseDuration: Double

    public init(heartbeatInterval: Double = 5, leaseDuration: Double = 15) {
        self.heartbeatInterval = heartbeatInterval
        self.leaseDuration = leaseDuration
    }

    /// The defaults, changed by `SKILLBOOK_HEARTBEAT` and `SKILLBOOK_LEASE` (seconds) when set to
    /// positive numbers (tests and benchmarks shorten them).
    public static func from(_ environment: [String: String]) -> LeaseSettings {
        var settings = LeaseSettings()
        if let beat = environment["SKILLBOOK_HEARTBEAT"].flatMap(Double.init), beat > 0 { settings.heartbeatInterval = beat }
        if let lease = environment["SKILLBOOK_LEASE"].flatMap(Double.init), lease > 0 { settings.leaseDuration = lease }
        return settings
    }
}
