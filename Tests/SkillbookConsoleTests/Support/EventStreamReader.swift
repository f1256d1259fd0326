import Foundation
import Synchronization

/// Follows a server-sent-event stream with the curl program (`-N`: unbuffered), collecting what
/// arrives, so a test sees the events as a browser would.
final class EventStreamReader: Sendable {
    private let process: Process
    /// What arrived so far.
    private final class Collected: Sendable {
        let text = Mutex("")
    }

    private let collected = Collected()

    init(url: String, cookie: String, extraHeaders: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sN", "--max-time", "20", "-H", "Cookie: skillbook_session_\(URLComponents(string: url)?.port ?? 0)=\(cookie)", "-H", "Accept: text/event-stream"]
            + extraHeaders.flatMap { ["-H", $0] } + [url]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let collected = collected
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
            collected.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        self.process = process
    }

    var text: String { collected.text.withLock { $0 } }

    /// Waits until the stream holds `needle` (10 s at most).
    func waitFor(_ needle: String, seconds: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !text.contains(needle) {
            guard Date() < deadline else { throw FixtureError("no '\(needle)' in the event stream after \(seconds) s; got: \(text)") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// Ends curl with SIGKILL (a child of the test runner may start with SIGTERM blocked); does not
    /// block the cooperative pool while it goes.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
