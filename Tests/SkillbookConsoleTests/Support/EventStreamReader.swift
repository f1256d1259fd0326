import Foundation
import SkillbookTesting

/// Follows a server-sent-event stream with the curl program (`-N`: unbuffered), collecting what
/// arrives, so a test sees the events as a browser would.
final class EventStreamReader: Sendable {
    private let process: ChildProgram
    /// What arrived so far.
    private let collected: OutputFile

    init(url: String, cookie: String, extraHeaders: [String] = []) throws {
        let collected = OutputFile()
        self.collected = collected
        process = try ChildProgram(
            "/usr/bin/curl",
            ["-sN", "--max-time", "20", "-H", "Cookie: skillbook_session_\(URLComponents(string: url)?.port ?? 0)=\(cookie)", "-H", "Accept: text/event-stream"]
                + extraHeaders.flatMap { ["-H", $0] } + [url],
            output: .file(collected))
    }

    var text: String { collected.text }

    /// Waits until the stream holds `needle` (10 s at most).
    func waitFor(_ needle: String, seconds: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !text.contains(needle) {
            guard Date() < deadline else { throw FixtureError("no '\(needle)' in the event stream after \(seconds) s; got: \(text)") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// Ends curl with SIGKILL; does not block the cooperative pool while it goes.
    func stop() {
        process.signal(SIGKILL)
    }
}
