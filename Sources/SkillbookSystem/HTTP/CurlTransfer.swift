import CCurl
import Foundation
import Synchronization

/// One exchange (one hop, no redirects) on libcurl's multi interface, driven on a thread of its
/// own so that the blocking wait never holds a thread of the cooperative pool.
///
/// The body is capped in the write callback: past `cap` bytes it keeps the prefix, marks the body
/// truncated and stops the transfer. The wait wakes for activity, for the deadline, and at once
/// for `cancel()` (`curl_multi_wakeup`), so cancellation and the timeout are prompt.
final class CurlTransfer: @unchecked Sendable {
    /// How an exchange ended.
    enum Ending {
        case completed(status: Int, headers: [(String, String)], body: Data, truncated: Bool)
        /// A libcurl error code.
        case failed(Int32)
        case timedOut
        case cancelled
    }

    private let cap: Int
    private let cancelled = Atomic<Bool>(false)
    /// The multi handle while the transfer runs; `cancel()` wakes it under this lock.
    private let multi = Mutex<MultiHandle?>(nil)
    // Touched only by the transfer thread (the callbacks run inside curl_multi_perform there).
    private var body = Data()
    private var truncated = false
    private var headers: [(String, String)] = []

    /// A multi handle as the lock holds it: `curl_multi_wakeup` may be called on it from any thread.
    private struct MultiHandle: @unchecked Sendable {
        var pointer: OpaquePointer
    }

    init(cap: Int) {
        self.cap = max(0, cap)
    }

    /// Asks the transfer to stop; safe from any thread, before or while it runs.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        multi.withLock { handle in
            if let handle { _ = skb_curl_multi_wakeup(handle.pointer) }
        }
    }

    /// Runs the configured `easy` handle to its end or until `deadline`; blocks the calling thread.
    func run(_ easy: OpaquePointer, until deadline: ContinuousClock.Instant) -> Ending {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = skb_curl_setopt_write(easy, { bytes, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().take(bytes, size * count)
        }, context)
        _ = skb_curl_setopt_header(easy, { bytes, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().header(bytes, size * count)
        }, context)
        guard let handle = skb_curl_multi_init() else { return .failed(Int32(SKB_CURLE_SEND_ERROR)) }
        multi.withLock { $0 = MultiHandle(pointer: handle) }
        _ = skb_curl_multi_add(handle, easy)
        defer {
            multi.withLock { $0 = nil }
            _ = skb_curl_multi_remove(handle, easy)
            skb_curl_multi_cleanup(handle)
        }
        let clock = ContinuousClock()
        while true {
            if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
            var running: Int32 = 0
            _ = skb_curl_multi_perform(handle, &running)
            let code = skb_curl_multi_done(handle)
            if code >= 0 || running == 0 { return ending(code: code < 0 ? Int32(SKB_CURLE_OK) : code, easy) }
            let remaining = deadline - clock.now
            guard remaining > .zero else { return .timedOut }
            let milliseconds = min(1000, max(1, Int32(remaining.seconds * 1000)))
            _ = skb_curl_multi_poll(handle, milliseconds)
        }
    }

    private func ending(code: Int32, _ easy: OpaquePointer) -> Ending {
        if code == Int32(SKB_CURLE_OPERATION_TIMEDOUT) { return .timedOut }
        if code == Int32(SKB_CURLE_WRITE_ERROR) && truncated || code == Int32(SKB_CURLE_OK) {
            return .completed(
                status: Int(skb_curl_response_code(easy)), headers: headers, body: body, truncated: truncated)
        }
        return .failed(code)
    }

    /// The write callback: keeps what fits under the cap; returning less than `count` stops curl.
    private func take(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes, count > 0 else { return count }
        let room = cap - body.count
        let kept = min(room, count)
        if kept > 0 { body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: kept) }
        guard kept == count else {
            truncated = true
            return 0
        }
        return count
    }

    /// The header callback: one line per call; a status line starts a new response (after a
    /// `100 Continue`), so only the final response's fields are kept.
    private func header(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes else { return count }
        let raw = UnsafeRawBufferPointer(start: bytes, count: count)
        let line = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { headers.append((name, value)) }
        }
        return count
    }
}
