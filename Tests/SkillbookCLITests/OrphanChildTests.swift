import SkillbookTesting
import Foundation
import Testing

/// Issue 10 item 20: a child process (`shell.run`, a manifest skill's command) does not outlive
/// `skillbook` when it is killed with SIGKILL: the kernel kills it with the runner (Linux's
/// parent-death signal, set by the child before it execs).
@Suite(.serialized) struct OrphanChildTests {
    /// Whether `pid` is a live process (a zombie waiting for its reaper counts as gone).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    /// Starts `skillbook run FILE`, waits for the child to write its pid to `child.pid`, kills the
    /// runner with SIGKILL and returns the child's pid and how long it lived on.
    static func killRunner(running file: URL, in directory: TemporaryDirectory, extra: [String] = []) async throws -> (Int32, Double?) {
        let runner = try SkillbookChild(["run", file.path, "--state", directory.state.path] + extra, in: directory.url)
        let pidFile = directory.url.appendingPathComponent("child.pid")
        var child: Int32?
        let deadline = Date().addingTimeInterval(30)
        while child == nil, Date() < deadline, runner.process.isRunning {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                child = pid
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let pid = try #require(child, "the child never started\n\(runner.transcript)")
        #expect(isAlive(pid))
        try await runner.kill(SIGKILL)
        let killed = Date()
        while Date().timeIntervalSince(killed) < 5 {
            if !isAlive(pid) { return (pid, Date().timeIntervalSince(killed)) }
            try await Task.sleep(for: .milliseconds(10))
        }
        Foundation.kill(pid, SIGKILL)
        return (pid, nil)
    }

    @Test func aShellRunChildDiesWithTheRunner() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "long.yaml",
            """
            name: long
            steps:
              - id: wait
                skill: shell.run
                confirm: false
                with: { argv: [sh, -c, "echo $$ > child.pid; exec sleep 30"], timeout: 60 }

            """)
        let (pid, gone) = try await Self.killRunner(running: file, in: directory)
        let seconds = try #require(gone, "child \(pid) outlived the runner by 5 s")
        #expect(seconds < 1, "child \(pid) was gone \(seconds) s after the runner")
    }

    @Test func aManifestChildDiesWithTheRunner() async throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Skills/wait.yaml",
            """
            id: demo.wait
            summary: Waits half a minute.
            kind: query
            run: [sh, -c, "echo $$ > child.pid; exec sleep 30"]
            timeout: 60

            """)
        let file = directory.write("wait.yaml", "name: wait\nsteps:\n  - { id: wait, skill: demo.wait }\n")
        let (pid, gone) = try await Self.killRunner(running: file, in: directory)
        let seconds = try #require(gone, "child \(pid) outlived the runner by 5 s")
        #expect(seconds < 1, "child \(pid) was gone \(seconds) s after the runner")
    }
}
