import Foundation
import Synchronization

/// A `FireLedger` in memory, for tests and dry runs: claims are atomic within the process.
public final class InMemoryFireLedger: FireLedger {
    struct Contents {
        var states: [String: EntryState] = [:]
        var claimed: [FireKey] = []
        var claimedKeys: Set<FireKey> = []
        var skipped: [FireKey] = []
    }

    private let contents = Mutex(Contents())

    public init() {}

    /// Keys claimed so far, in order.
    public var claimed: [FireKey] { contents.withLock { $0.claimed } }
    /// Keys recorded as skipped, in order.
    public var skipped: [FireKey] { contents.withLock { $0.skipped } }

    public func state(playbook: String, entry: Int) async throws -> EntryState {
        contents.withLock { $0.states["\(playbook)#\(entry)"] ?? EntryState() }
    }

    public func save(_ state: EntryState, playbook: String, entry: Int) async throws {
        contents.withLock { $0.states["\(playbook)#\(entry)"] = state }
    }

    public func claim(_ fire: Fire) async throws -> Bool {
        contents.withLock {
            guard $0.claimedKeys.insert(fire.key).inserted else { return false }
            $0.claimed.append(fire.key)
            return true
        }
    }

    public func recordSkipped(_ fire: Fire) async throws {
        contents.withLock { $0.skipped.append(fire.key) }
    }
}
