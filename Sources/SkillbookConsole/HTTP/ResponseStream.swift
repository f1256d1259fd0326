import Foundation
import Synchronization

/// The body of a streamed response (server-sent events): writers append bytes from any thread,
/// the connection's thread sends them as they come. A comment line goes out when nothing was
/// written for `keepAlive` seconds, so proxies and the idle timeout keep the connection open.
///
/// The stream ends when `finish()` is called or the client goes; `onClose` is then called once
/// (to unsubscribe). A client that stops reading does not make it grow without end: past
/// `maxPending` bytes not yet sent, the stream ends after them (the page reconnects and reads the
/// state afresh).
public final class ResponseStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var finished = false
        var closed = false
        var onClose: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)
    private let keepAlive: Double
    private let maxPending: Int

    public init(keepAlive: Double = 15, maxPending: Int = 4 << 20) {
        self.keepAlive = keepAlive
        self.maxPending = maxPending
    }

    /// Called once when the stream is done (finished or the client went away).
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onClose.append(action) }
    }

    /// Whether the client is gone or the stream finished.
    public var isClosed: Bool { state.withLock { $0.closed || $0.finished } }

    public func write(_ text: String) {
        let written = state.withLock { state -> Bool in
            guard !state.finished, !state.closed else { return false }
            state.pending.append(contentsOf: Array(text.utf8))
            if state.pending.count > maxPending { state.finished = true }
            return true
        }
        if written { signal.signal() }
    }

    /// No more bytes: the response ends once what is pending is sent.
    public func finish() {
        state.withLock { $0.finished = true }
        signal.signal()
    }

    /// Up to `max` bytes to send, waiting for them; `nil` at the end.
    func read(max: Int) -> [UInt8]? {
        var waited = 0.0
        while true {
            let taken = state.withLock { state -> [UInt8]? in
                if !state.pending.isEmpty {
                    let count = min(max, state.pending.count)
                    let chunk = Array(state.pending.prefix(count))
                    state.pending.removeFirst(count)
                    return chunk
                }
                return state.finished ? [] : nil
            }
            if let taken { return taken.isEmpty ? nil : taken }
            if signal.wait(timeout: .now() + 1) == .timedOut {
                waited += 1
                if waited >= keepAlive { return Array(": keep-alive\n\n".utf8).prefix(max).map { $0 } }
            }
        }
    }

    /// The connection is done with the stream.
    func close() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            defer { state.onClose = [] }
            return state.onClose
        }
        for action in actions { action() }
    }
}
