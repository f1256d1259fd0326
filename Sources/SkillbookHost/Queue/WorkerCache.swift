import Foundation
import SkillbookCore
import Synchronization

/// What a worker keeps between the runs it claims: its skill registry (built once, at its first
/// claim: a worker loads the skills folders when it starts running, restart it after changing
/// them) and each playbook it checked, by file name and content hash (a changed file is checked
/// again). Safe to use from concurrent runs.
public final class WorkerCache: Sendable {
    private let loaded = Mutex<SkillRegistry?>(nil)
    private let playbooks = Mutex<[String: Playbook]>([:])
    /// Bounds the playbooks kept (a worker serving many files forgets them all and starts again).
    private let maximumPlaybooks: Int

    public init(maximumPlaybooks: Int = 256) {
        self.maximumPlaybooks = maximumPlaybooks
    }

    /// The registry, built by `make` the first time (a failure is not kept: the next run tries again).
    func registry(_ make: () async throws(HostError) -> SkillRegistry) async throws(HostError) -> SkillRegistry {
        if let registry = loaded.withLock({ $0 }) { return registry }
        let registry = try await make()
        loaded.withLock { $0 = $0 ?? registry }
        return registry
    }

    /// The playbook checked from `text` under `file`, checked by `check` the first time (a playbook
    /// with errors is not kept).
    func playbook(file: String, text: String, _ check: () throws(HostError) -> Playbook) throws(HostError) -> Playbook {
        let key = "\(file)\u{0}\(SourceHash.of(text))"
        if let playbook = playbooks.withLock({ $0[key] }) { return playbook }
        let playbook = try check()
        playbooks.withLock { cache in
            if cache.count >= maximumPlaybooks { cache.removeAll() }
            cache[key] = playbook
        }
        return playbook
    }

    /// How many checked playbooks it keeps.
    public var playbookCount: Int { playbooks.withLock { $0.count } }
}
