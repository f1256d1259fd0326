#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SkillbookCore
import Synchronization

/// Newline-delimited messages over a pair of file descriptors: the stdio transport of MCP.
///
/// A dedicated thread reads `input` (blocking `read`, never the cooperative pool) and yields
/// each line without its newline (and without a trailing `\r`); a last line without a newline
/// is yielded when the input ends, and then `lines` finishes. A line longer than `lineLimit`
/// bytes is yielded as its first `lineLimit + 1` bytes (so a reader sees it is over the limit
/// and answers it with a parse error) and the rest of it, up to the next newline, is discarded:
/// no part of its tail is ever read as a message of its own. `send` writes one line and its
/// newline at once, serialised between callers, and reports `false` once the other end is gone
/// (SIGPIPE is ignored for the process, so a gone reader is an error, not a crash).
public final class LineChannel: Sendable {
    public let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let input: Int32
    private let output: Mutex<Int32>
    private let closesInput: Bool
    private let started = Mutex(false)

    /// The longest line accepted by default (`Limits.mcpLineBytes`).
    public static let maximumLineLength = Limits.mcpLineBytes

    /// The longest line accepted, in bytes.
    public let lineLimit: Int

    /// `closesDescriptors`: close `input` when it ends and `output` in `closeOutput()` (for pipes
    /// this channel owns); stdin and stdout of the process are left open.
    public init(input: Int32, output: Int32, closesDescriptors: Bool, lineLimit: Int = LineChannel.maximumLineLength) {
        precondition(lineLimit > 0, "a line limit must be positive")
        self.lineLimit = lineLimit
        self.input = input
        self.output = Mutex(output)
        self.closesInput = closesDescriptors
        (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        signal(SIGPIPE, SIG_IGN)
    }

    /// The process's own stdin and stdout.
    public static func standardStreams() -> LineChannel {
        LineChannel(input: 0, output: 1, closesDescriptors: false)
    }

    /// Starts the reading thread; later calls do nothing.
    public func start() {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let thread = Thread { [self] in readLoop() }
        thread.name = "mcp-line-reader"
        thread.start()
    }

    private func readLoop() {
        let size = 65536
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        var pending: [UInt8] = []
        // Inside an over-long line, already yielded: drop bytes up to its newline.
        var discarding = false
        while true {
            let count = read(input, buffer, size)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            var start = 0
            while start < count {
                let newline = memchr(buffer + start, 0x0A, count - start).map { $0.assumingMemoryBound(to: UInt8.self) - buffer }
                let end = newline ?? count
                if !discarding {
                    let taken = min(end - start, lineLimit + 1 - pending.count)
                    pending.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: taken))
                    if pending.count > lineLimit {
                        continuation.yield(String(decoding: pending, as: UTF8.self))
                        pending.removeAll()
                        discarding = true
                    }
                }
                guard let newline else { break }
                if discarding {
                    discarding = false
                } else {
                    emit(pending)
                    pending.removeAll(keepingCapacity: pending.capacity <= size)
                }
                start = newline + 1
            }
        }
        if !pending.isEmpty && !discarding { emit(pending) }
        if closesInput { close(input) }
        continuation.finish()
    }

    private func emit(_ bytes: [UInt8]) {
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return }
        continuation.yield(line)
    }

    /// Writes `line` and a newline. `false` when the output is closed or its reader is gone.
    @discardableResult
    public func send(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        return output.withLock { fd in
            guard fd >= 0 else { return false }
            var written = 0
            while written < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                written += n
            }
            return true
        }
    }

    /// Closes the output (the peer reads end-of-file); later sends return `false`.
    public func closeOutput() {
        output.withLock { fd in
            if fd >= 0, closesInput || fd > 2 { close(fd) }
            fd = -1
        }
    }
}
