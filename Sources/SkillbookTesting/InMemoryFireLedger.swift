import Foundation
public import SkillbookCore
import Synchronization

/// A `FireLedger` in memory, for tests: commits are atomic within the process.
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

    public func commit(_ decision: FireDecision, playbook: String, entry: Int) async throws -> [Fire] {
        contents.withLock { contents in
            contents.states["\(playbook)#\(entry)"] = decision.state
            contents.skipped += decision.skipped.map(\.key)
            return decision.start.filter { fire in
                guard contents.claimedKeys.insert(fire.key).inserted else { return false }
                contents.claimed.append(fire.key)
                return true
            }
        }
    }
}
