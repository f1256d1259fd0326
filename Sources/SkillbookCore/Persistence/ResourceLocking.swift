/// That a step waits for resources another run holds: which of them are held, and by which run
/// (`nil` when the holder is not known, such as a run of this process that has not said).
public struct ResourceWait: Sendable, Hashable, CustomStringConvertible {
    public var resources: [String]
    public var heldBy: String?

    public init(resources: [String], heldBy: String?) {
        self.resources = resources
        self.heldBy = heldBy
    }

    /// `waiting for 'notes', held by run 3f2a91c0…`.
    public var description: String { describe("waiting for") }

    /// `VERB 'notes', held by run 3f2a91c0…` (`waited for` in a timeline).
    public func describe(_ verb: String) -> String {
        let names = resources.map { "'\($0)'" }
        let list = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        guard let heldBy else { return "\(verb) \(list)" }
        let run = heldBy.count > 8 ? heldBy.prefix(8) + "…" : Substring(heldBy)
        return "\(verb) \(list), held by run \(run)"
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
    /// Waits until every named resource is free, then holds them all for run `runID`, whose step
    /// `step` (its path, `parent/child` inside sub-playbooks) is about to write them.
    func acquire(
        _ resources: [String], for runID: String, step: String, waiting: @escaping @Sendable (ResourceWait) -> Void
    ) async throws
    /// Lets go of resources `runID` holds (those it does not hold are ignored).
    func release(_ resources: [String], for runID: String) async
}
