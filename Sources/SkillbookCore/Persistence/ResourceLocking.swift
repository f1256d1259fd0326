/// That a step waits for resources another run holds: which of them are held, and by which run
/// (`nil` when the holder is not known, such as a run of this process that has not said).
public struct ResourceWait: Sendable, Hashable {
    public var resources: [String]
    public var heldBy: String?

    public init(resources: [String], heldBy: String?) {
        self.resources = resources
        self.heldBy = heldBy
    }
}

/// Write locks on named resources (`notes`, `files`): while one run holds a resource, no other run
/// gets it, so two steps that write the same resource never run at once. Queries take no lock.
///
/// A conformer must:
/// - grant all of `resources` at once or none (no run holds some while waiting for others, so two
///   runs wanting the same pair cannot deadlock);
/// - while waiting, call `waiting` whenever the set of busy resources or their holder changes
///   (at least once, before the first wait), from any task;
/// - stop waiting when the calling task is cancelled, throwing `CancellationError` and holding
///   nothing;
/// - let a holder that died (its process ended, its lease expired) lose its locks to the next
///   run that asks.
public protocol ResourceLocking: Sendable {
    /// Waits until every named resource is free, then holds them all for run `runID`.
    func acquire(
        _ resources: [String], for runID: String, waiting: @escaping @Sendable (ResourceWait) -> Void
    ) async throws
    /// Lets go of resources `runID` holds (those it does not hold are ignored).
    func release(_ resources: [String], for runID: String) async
}
