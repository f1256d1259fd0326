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

    private struct State {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        /// The events so far of runs going on in this process (at most `kept` each), replayed to
        /// a page that starts following one of them: the journal shows a read-only call only a
        /// moment after it starts, the engine's events at once.
        var going: [String: [String]] = [:]
    }

    static let kept = 1_000
    private let state = Mutex(State())

    /// A new stream following `run` (every run when `nil`); for a run going on here, its events so
    /// far come first.
    func subscribe(run: String?) -> ResponseStream {
        let stream = ResponseStream()
        let key = ObjectIdentifier(stream)
        // The first bytes open the stream in the browser at once.
        stream.write("retry: 2000\n: subscribed\n\n")
        state.withLock { state in
            state.subscribers[key] = Subscriber(stream: stream, run: run)
            if let run, let earlier = state.going[run] { for text in earlier { stream.write(text) } }
        }
        stream.onClose { [weak self] in _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) } }
        return stream
    }

    /// Sends one event (an object with at least `type` and `run`) to the subscribers that follow
    /// its run; `keep`: also remember it for later subscribers, until `forget(run)`.
    func publish(run: String, _ event: ValueObject, keep: Bool = false) {
        let text = "event: run\ndata: \(JSONText.encode(.object(event)))\n\n"
        let targets = state.withLock { state in
            if keep, state.going[run, default: []].count < Self.kept { state.going[run, default: []].append(text) }
            return state.subscribers.values.filter { $0.run == nil || $0.run == run }.map(\.stream)
        }
        for stream in targets { stream.write(text) }
    }

    /// The run ended: the journal holds all of it now.
    func forget(run: String) {
        _ = state.withLock { $0.going.removeValue(forKey: run) }
    }

    var count: Int { state.withLock { $0.subscribers.count } }

    func finishAll() {
        for stream in state.withLock({ $0.subscribers.values.map(\.stream) }) { stream.finish() }
    }
}

/// Reads the journal now and then and reports what changed in runs this process does not run: a
/// new run, a status change, a new call or step end of a running one. While no page listens it
/// does not read (an idle console costs nothing but a wake-up per interval); the first read after
/// one connects reports what changed meanwhile.
struct JournalPoller: Sendable {
    var journal: @Sendable () throws -> any RunJournal
    var hub: EventHub
    /// Runs whose events come from the engine (started here): not reported twice.
    var isLocal: @Sendable (String) -> Bool

    func run(every interval: Double) async {
        var seen: [String: (status: String, calls: Int)] = [:]
        var first = true
        while !Task.isCancelled {
            if hub.count > 0 || first, let journal = try? journal(), let runs = try? await journal.runs(playbook: nil, status: nil, limit: 50) {
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
