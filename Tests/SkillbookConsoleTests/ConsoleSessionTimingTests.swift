import Foundation
import SkillbookConsole
import SkillbookCore
import Testing

/// The console's rules that are about time: failed logins throttled for a window, sessions that
/// expire when idle. They wait on the wall clock (windows of a second or two), so they run in the
/// serial pass (the Makefile's TIMED_SUITES), not beside every other suite on two loaded cores.
@Suite struct ConsoleSessionTimingTests {
    @Test func failedLoginsAreThrottled() async throws {
        let console = try await ConsoleFixture.start { $0.loginWindow = 1.5 }
        defer { Task { await console.stop() } }
        for _ in 0..<5 { #expect(try await console.send("GET", "/login?token=wrong").status == 401) }
        let throttled = try await console.send("GET", "/login?token=\(console.token)")
        #expect(throttled.status == 429)
        #expect(throttled.header("retry-after").flatMap(Int.init).map { (1...2).contains($0) } == true)
        #expect(String(decoding: throttled.body, as: UTF8.self).contains("too many failed logins: this server accepts none for the next"))
        try await Task.sleep(nanoseconds: 1_600_000_000)
        #expect(try await console.send("GET", "/login?token=\(console.token)").status == 303)
    }

    /// A session unused for the idle time ends; using it keeps it; the table keeps at most maxSessions.
    @Test func sessionsExpireWhenIdleAndAreBounded() async throws {
        let console = try await ConsoleFixture.start {
            $0.sessionIdle = 1
            $0.maxSessions = 2
            $0.tokenIsReusable = true
        }
        defer { Task { await console.stop() } }
        let first = try await console.logIn()
        #expect(try await console.send("GET", "/login?token=\(console.token)").header("set-cookie")?.contains("Max-Age=1;") == true)
        for _ in 0..<3 {
            try await Task.sleep(nanoseconds: 500_000_000)
            #expect(try await console.send("GET", "/api/v1/runs", session: first).status == 200)
        }
        try await Task.sleep(nanoseconds: 1_200_000_000)
        #expect(try await console.send("GET", "/api/v1/runs", session: first).status == 401)
        // A third live session ends the least recently used one.
        let a = try await console.logIn()
        let b = try await console.logIn()
        #expect(try await console.send("GET", "/api/v1/runs", session: a).status == 200)
        let c = try await console.logIn()
        #expect(try await console.send("GET", "/api/v1/runs", session: b).status == 401)
        #expect(try await console.send("GET", "/api/v1/runs", session: a).status == 200)
        #expect(try await console.send("GET", "/api/v1/runs", session: c).status == 200)
    }
}
