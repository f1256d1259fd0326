import Foundation
import Synchronization

/// Where the CLI writes, and what it knows about the terminal. Injectable so commands are
/// tested in-process.
public struct Console: Sendable {
    public var writeOut: @Sendable (String) -> Void
    public var writeErr: @Sendable (String) -> Void
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    /// Whether confirmations can be asked: stdin is a terminal.
    public var stdinIsTerminal: Bool
    /// Reads one answer line (for confirmations); `nil` at end of input.
    public var readLine: @Sendable () async -> String?
    /// Colour is used only on a terminal and never with `NO_COLOR` or `--no-color`.
    public var colors: Bool
    /// The size of the terminal stderr writes to, read when needed (it can change); `nil` when unknown.
    public var terminalSize: @Sendable () -> (columns: Int, rows: Int)?

    public init(
        writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
        stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false, colors: Bool = false,
        stdinIsTerminal: Bool = false, readLine: @escaping @Sendable () async -> String? = { nil },
        terminalSize: @escaping @Sendable () -> (columns: Int, rows: Int)? = { nil }
    ) {
        self.terminalSize = terminalSize
        self.stdinIsTerminal = stdinIsTerminal
        self.readLine = readLine
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.colors = colors
    }

    public static func standard(environment: [String: String]) -> Console {
        let outTerminal = isatty(STDOUT_FILENO) == 1
        let errTerminal = isatty(STDERR_FILENO) == 1
        return Console(
            writeOut: { text in writeAll(text, to: STDOUT_FILENO) },
            writeErr: { text in writeAll(text, to: STDERR_FILENO) },
            stdoutIsTerminal: outTerminal, stderrIsTerminal: errTerminal,
            colors: errTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb",
            stdinIsTerminal: isatty(STDIN_FILENO) == 1,
            readLine: { await Task.detached { Swift.readLine(strippingNewline: true) }.value },
            terminalSize: {
                var size = winsize()
                guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
                return (Int(size.ws_col), Int(size.ws_row))
            })
    }

    /// Writes all of `text` to `descriptor`, continuing short writes, retrying interrupted ones and
    /// waiting while a non-blocking descriptor is full; another error (a closed pipe) drops the rest. Straight from the string's bytes: `Data(text.utf8)`
    /// cost a scan of the binary's conformance records on its first use (~170 k instructions).
    static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = write(descriptor, next, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, -1)
                        continue
                    }
                    return
                }
                next += written
                left -= written
            }
        }
    }

    public func out(_ line: String) { writeOut(line + "\n") }
    public func err(_ line: String) { writeErr(line + "\n") }

    func style(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Output captured in memory, for tests.
public final class CapturedOutput: Sendable {
    private let storage = Mutex<(out: String, err: String)>(("", ""))

    public init() {}

    public var out: String { storage.withLock { $0.out } }
    public var err: String { storage.withLock { $0.err } }

    public var console: Console {
        Console(
            writeOut: { text in self.storage.withLock { $0.out += text } },
            writeErr: { text in self.storage.withLock { $0.err += text } })
    }
}
