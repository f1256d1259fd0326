/// Write locks on named resources (`notes`, `files`): two steps that write the same resource —
/// in one run or in two runs of this process — never run at once. Queries take no lock.
public actor ResourceLocks {
    public static let shared = ResourceLocks()

    private var held: Set<String> = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// Waits until every named resource is free, then holds them all.
    public func acquire(_ resources: [String]) async {
        let wanted = Set(resources)
        guard !wanted.isEmpty else { return }
        while !held.isDisjoint(with: wanted) {
            await withCheckedContinuation { waiters.append($0) }
        }
        held.formUnion(wanted)
    }

    public func release(_ resources: [String]) {
        held.subtract(resources)
        let waking = waiters
        waiters.removeAll()
        for waiter in waking { waiter.resume() }
    }

    public var heldResources: Set<String> { held }
}
