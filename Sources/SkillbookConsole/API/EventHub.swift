import Foundation
import SkillbookCore
import Synchronization

/// Fans run events out to the server-sent-event streams of the pages: each subscriber follows one
/// run or all runs. Events come from the engine for runs this process starts, and from the
/// journal poller for runs of other processes.
final class EventHub: Sendable {
    private struct Subscriber {
        var stream: ResponseStream
        var run: String?
    }

    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])

    /// A new stream following `run` (every run when `nil`).
    func subscribe(run: String?) -> ResponseStream {
        let stream = ResponseStream()
        let key = ObjectIdentifier(stream)
        subscribers.withLock { $0[key] = Subscriber(stream: stream, run: run) }
        stream.onClose { [weak self] in _ = self?.subscribers.withLock { $0.removeValue(forKey: key) } }
        // The first bytes open the stream in the browser at once.
        stream.write("retry: 2000\n: subscribed\n\n")
        return stream
    }

    /// Sends one event (an object with at least `type` and `run`) to the subscribers that follow its run.
    func publish(run: String, _ event: ValueObject) {
        let text = "event: run\ndata: \(JSONText.encode(.object(event)))\n\n"
        let targets = subscribers.withLock { $0.values.filter { $0.run == nil || $0.run == run }.map(\.stream) }
        for stream in targets { stream.write(text) }
    }

    var count: Int { subscribers.withLock { $0.count } }

    func finishAll() {
        for stream in subscribers.withLock({ $0.values.map(\.stream) }) { stream.finish() }
    }
}

/// Reads the journal now and then and reports what changed in runs this process does not run: a
/// new run, a status change, a new call or step end of a running one.
struct JournalPoller: Sendable {
    var journal: @Sendable () throws -> any RunJournal
    var hub: EventHub
    /// Runs whose events come from the engine (started here): not reported twice.
    var isLocal: @Sendable (String) -> Bool

    func run(every interval: Double) async {
        var seen: [String: (status: String, calls: Int)] = [:]
        var first = true
        while !Task.isCancelled {
            if let journal = try? journal(), let runs = try? await journal.runs(playbook: nil, status: nil, limit: 50) {
                for run in runs where !isLocal(run.id) {
                    var calls = seen[run.id]?.calls ?? 0
                    if run.status == .running || seen[run.id]?.status == JournalStatus.running.rawValue {
                        calls = ((try? await journal.calls(of: run.id).count) ?? 0) + ((try? await journal.steps(of: run.id).count) ?? 0)
                    }
                    let before = seen[run.id]
                    seen[run.id] = (run.status.rawValue, calls)
                    if first { continue }
                    if before == nil || before?.status != run.status.rawValue || before?.calls != calls {
                        var event = ConsoleJSON.row(run)
                        event["type"] = "run.updated"
                        event["run"] = .string(run.id)
                        hub.publish(run: run.id, event)
                    }
                }
                first = false
            }
            try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
        }
    }
}
