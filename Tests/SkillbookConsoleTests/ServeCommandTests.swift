import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

/// `skillbook serve` as a program (the debug build): where it may listen, and the token file.
@Suite struct ServeCommandTests {
    static let binary = ConsoleBrowserTests.root.appendingPathComponent(".build/debug/skillbook").path

    @Test func aNonLoopbackAddressNeedsATokenFileAndAPublicURL() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "no \(Self.binary): run 'swift build' first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("token")
        try "0123456789abcdef0123456789abcdef\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        let message = "listening on 0.0.0.0 (not loopback) needs --token-file FILE and --public-url URL (the URL browsers use, "
            + "such as https://skillbook.example.org); put TLS in a reverse proxy in front"
        for arguments in [
            ["serve", "--listen", "0.0.0.0:0"], ["serve", "--listen", "0.0.0.0:0", "--token-file", tokenFile.path],
            ["serve", "--listen", "0.0.0.0:0", "--public-url", "https://skillbook.example.org"],
        ] {
            let refused = try await Self.run(arguments, in: directory)
            #expect(refused.code == 2)
            #expect(refused.err.contains(message), "\(arguments): \(refused.err)")
        }
        let badURL = try await Self.run(["serve", "--public-url", "https://skillbook.example.org/console"], in: directory)
        #expect(badURL.code == 2)
        #expect(badURL.err.contains("--public-url expects http(s)://HOST[:PORT] with no path"))
        let bad = try await Self.run(["serve", "--listen", "nonsense"])
        #expect(bad.code == 2)
        #expect(bad.err.contains("--listen expects ADDRESS:PORT"))
    }

    /// An address and port already taken: named, exit 2 (nothing was served); it had said "that
    /// address and port" and exited 1.
    @Test func aPortInUseIsNamedAndNothingRan() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "no \(Self.binary): run 'swift build' first")
        let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taken) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(taken, $0, length) == 0 && getsockname(taken, $0, &length) == 0 }
        }
        try #require(bound && listen(taken, 1) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let refused = try await Self.run(["serve", "--listen", "127.0.0.1:\(port)"])
        #expect(refused.code == 2)
        #expect(refused.err.contains("skillbook: error: --listen 127.0.0.1:\(port): cannot listen on that address and port"), "\(refused.err)")
    }

    @Test func aTokenFileTokenLogsInMoreThanOnce() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "no \(Self.binary): run 'swift build' first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Playbooks"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("token")
        try "a-long-enough-token-0123456789abcdef\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        let short = directory.appendingPathComponent("short")
        try "0123456789abcdef0123456789abcde".write(to: short, atomically: true, encoding: .utf8)
        let tooShort = try await Self.run(["serve", "--listen", "127.0.0.1:0", "--token-file", short.path], in: directory)
        #expect(tooShort.code == 2)
        #expect(tooShort.err.contains("must be one word of at least 32 characters"))

        let out = OutputFile()
        let serve = try ChildProgram(
            Self.binary,
            ["serve", "--listen", "127.0.0.1:0", "--token-file", tokenFile.path, "--state", directory.appendingPathComponent("state").path],
            in: directory, output: .file(out))
        let url = try #require(await Self.firstLine(out, of: serve))
        #expect(url.hasSuffix("/login?token=a-long-enough-token-0123456789abcdef"))
        for _ in 0..<2 {
            let login = try await Self.run(["/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url], program: "/usr/bin/curl")
            #expect(login.out == "303")
        }
        serve.signal(SIGINT)
        #expect(await serve.exit(within: 60) == .exited(0))
    }

    /// `serve --schedules`: the console and the daemon's scheduler in one process, under the daemon's
    /// lock (a `skillbook daemon` on the same state is refused); one SIGTERM stops both.
    @Test func serveWithSchedulesFiresThemAndOneSIGTERMStopsBoth() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "no \(Self.binary): run 'swift build' first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-serve-\(UUID().uuidString)")
        let playbooks = directory.appendingPathComponent("Playbooks")
        try FileManager.default.createDirectory(at: playbooks, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            name: tick
            schedule: { every: 1s }
            steps:
              - id: say
                skill: debug.echo
                with: { value: tock }

            """
        try text.write(to: playbooks.appendingPathComponent("tick.yaml"), atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state")

        let out = OutputFile()
        let err = OutputFile()
        let serve = try ChildProgram(
            Self.binary, ["serve", "--listen", "127.0.0.1:0", "--schedules", "--state", state.path], in: directory,
            output: .file(out), error: .file(err))
        let url = try #require(await Self.firstLine(out, of: serve))
        #expect(url.contains("/login?token="))

        // Its schedules fire: a run with trigger schedule appears in the journal.
        let host = PlaybookHost(HostConfiguration(playbooksDirectory: playbooks, stateDirectory: state, currentDirectory: directory))
        var fired: [JournalRun] = []
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, fired.isEmpty {
            fired = (try? await host.openJournal().runs(playbook: "tick", status: .succeeded, limit: 5)) ?? []
            if fired.isEmpty { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        #expect(fired.first?.trigger == "schedule")

        // The Schedules API of the same process: it fires them, and shows the last fire and its status.
        let jar = directory.appendingPathComponent("jar").path
        _ = try await Self.run(["/usr/bin/curl", "-s", "-c", jar, "-o", "/dev/null", url], program: "/usr/bin/curl")
        let base = String(url.prefix(while: { $0 != "/" }) + "//" + url.dropFirst("http://".count).prefix(while: { $0 != "/" }))
        let answer = try await Self.run(["/usr/bin/curl", "-s", "-b", jar, base + "/api/v1/schedules"], program: "/usr/bin/curl")
        guard case .object(let schedules) = try JSONText.decode(answer.out) else { throw FixtureError("not JSON: \(answer.out)") }
        #expect(schedules["fired_here"] == true)
        let entry = try #require(schedules["schedules"]?.arrayValue?.first?.objectValue)
        #expect(entry["trigger"] == "every 1s")
        #expect(entry["last"]?.objectValue?["status"] == "succeeded", "\(entry)")

        // The daemon's lock: a second scheduler on the same state is refused.
        let second = try await Self.run(["serve", "--listen", "127.0.0.1:0", "--schedules", "--state", state.path], in: directory)
        #expect(second.code == 2)
        #expect(second.err.contains("another skillbook daemon (pid \(serve.pid)) fires this state's schedules"), "\(second.err)")
        let daemon = try await Self.run(["daemon", "--state", state.path], in: directory)
        #expect(daemon.code == 2)
        #expect(daemon.err.contains("another skillbook daemon (pid \(serve.pid))"), "\(daemon.err)")

        let stopping = Date()
        serve.signal(SIGTERM)
        #expect(await serve.exit(within: 60) == .exited(0))
        #expect(Date().timeIntervalSince(stopping) < 5)
        let log = err.text
        #expect(log.contains("stopping the console and the schedules"), "\(log)")
        #expect(log.contains("daemon stopped"), "\(log)")
        // Both stopped: no fire after the exit, and the lock is free again.
        let count = try await host.openJournal().runs(playbook: "tick", status: nil, limit: 1000).count
        try await Task.sleep(nanoseconds: 1_500_000_000)
        #expect(try await host.openJournal().runs(playbook: "tick", status: nil, limit: 1000).count == count)
        #expect(throws: Never.self) { _ = try DaemonLock(stateDirectory: state) }
    }

    /// The first line `child` writes to `out`, once it is complete; `nil` when the child ends (or
    /// a minute passes) without one.
    static func firstLine(_ out: OutputFile, of child: ChildProgram) async -> String? {
        _ = await eventually(within: 60) { out.text.contains("\n") || !child.isRunning }
        let text = out.text
        let line = text.prefix { $0 != "\n" }
        guard text.contains("\n") || !child.isRunning, !line.isEmpty else { return nil }
        return String(line)
    }

    static func run(_ arguments: [String], in directory: URL? = nil, program: String = binary) async throws -> (code: Int32, out: String, err: String) {
        let result = try await runProgram(
            URL(fileURLWithPath: program), program == binary ? arguments : Array(arguments.dropFirst()), in: directory)
        return (result.code, result.out, result.err)
    }
}
