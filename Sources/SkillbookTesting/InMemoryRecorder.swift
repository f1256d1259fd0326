public import Foundation
public import SkillbookCore
import Synchronization

/// A journal in memory: what a run recorded, for tests of recording and resuming.
public final class InMemoryRecorder: RunRecorder {
    public struct Contents: Sendable {
        public var runs: [RunRecord] = []
        public var calls: [JournaledCall] = []
        public var steps: [String: [JournaledStep]] = [:]
        public var results: [RunResult] = []
        public var compensations: [(key: CallKey, error: String?)] = []
        public var approvals: [ApprovalRequest] = []
        /// Advances on every start and finish, like a journal's row ids.
        var clock = 0
    }

    private let storage = Mutex(Contents())
    /// When set, `callStarted` throws this many calls from now (0 = the next one).
    private let failAfter = Mutex<Int?>(nil)

    public init() {}

    public var contents: Contents { storage.withLock { $0 } }

    public func failCallStarted(after count: Int) {
        failAfter.withLock { $0 = count }
    }

    public func runStarted(_ run: RunRecord) throws {
        storage.withLock { $0.runs.append(run) }
    }

    public func callStarted(_ call: CallRecord) throws {
        let fail = failAfter.withLock { remaining -> Bool in
            guard let left = remaining else { return false }
            if left == 0 { return true }
            remaining = left - 1
            return false
        }
        if fail { throw SkillError("disk full") }
        storage.withLock { contents in
            contents.calls.append(
                JournaledCall(
                    key: call.key, skill: call.skill, attempt: call.attempt, parameters: call.parameters, output: nil,
                    error: nil, order: contents.clock, compensated: false))
            contents.clock += 1
        }
    }

    public func callFinished(_ call: CallRecord, output: Value?, error: String?, finished: Date) throws {
        storage.withLock { contents in
            guard let index = contents.calls.lastIndex(where: { $0.key == call.key && $0.attempt == call.attempt }) else { return }
            contents.calls[index].output = output
            contents.calls[index].outputMasked = call.outputMasked
            contents.calls[index].error = error
            contents.calls[index].order = contents.clock
            contents.clock += 1
        }
    }

    public func stepFinished(
        runID: String, step: String, status: StepStatus, output: Value?, outputMasked: Bool, error: String?
    ) throws {
        storage.withLock {
            $0.steps[runID, default: []].append(JournaledStep(step: step, status: status, output: output, outputMasked: outputMasked))
        }
    }

    public func compensationFinished(runID: String, key: CallKey, step: String, error: String?, finished: Date) throws {
        storage.withLock { contents in
            contents.compensations.append((key, error))
            if error == nil {
                for index in contents.calls.indices where contents.calls[index].key == key {
                    contents.calls[index].compensated = true
                }
            }
        }
    }

    public func runFinished(_ result: RunResult) throws {
        storage.withLock { $0.results.append(result) }
    }

    public func approvalRequested(_ request: ApprovalRequest) throws {
        storage.withLock { $0.approvals.append(request) }
    }

    /// The resume plan of a run, as a real journal would build it.
    public func resumePlan(
        _ runID: String, isReadOnly: (_ skill: String) -> Bool = { _ in false },
        decide: (JournaledCall) -> ResumePlan.Uncertain = { _ in .rerun }
    ) -> ResumePlan {
        let contents = self.contents
        return ResumePlan.from(calls: contents.calls, steps: contents.steps[runID] ?? [], isReadOnly: isReadOnly, decide: decide)
    }
}
