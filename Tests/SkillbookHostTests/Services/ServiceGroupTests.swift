import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSQLite
import SkillbookTesting
import Testing

/// Services run together: two real schedule daemons (as `serve --schedules` runs the console and
/// the daemon) stop together, gracefully on a signal and when one of the group fails. Signals to
/// this test process: SIGWINCH and SIGVTALRM stand in for SIGTERM (no other test watches them).
@Suite(.serialized) struct ServiceGroupTests {
    static func playbook(seconds: Double) -> String {
        """
        name: nap
        schedule: { every: 1h }
        steps:
          - id: save
            skill: notes.create
            with: { title: napped }
          - id: nap
            skill: debug.sleep
            with: { seconds: \(seconds) }
        """
    }

    /// A daemon on a workspace of its own, on the real clock, logging into `log`.
    static func daemon(_ fixture: HostFixture, seconds: Double, log: Recorder<String>) throws -> ScheduleService {
        fixture.write("Playbooks/nap.yaml", playbook(seconds: seconds))
        var configuration = fixture.configuration()
        configuration.clock = SystemClock()
        return try ScheduleService(host: PlaybookHost(configuration), grace: 0, log: { log.append($0) })
    }

    static func runs(_ fixture: HostFixture) throws -> [JournalRun] {
        try SQLiteJournal(stateDirectory: fixture.state).runs(playbook: "nap", status: nil, limit: 10)
    }

    @Test func oneSignalStopsBothServicesGracefullyAndTheirRunsFinish() async throws {
        let (first, second) = (HostFixture(), HostFixture())
        let (firstLog, secondLog) = (Recorder<String>(), Recorder<String>())
        let events = Recorder<ServiceGroup.Event>()
        let group = ServiceGroup(
            services: [try Self.daemon(first, seconds: 1.5, log: firstLog), try Self.daemon(second, seconds: 1.5, log: secondLog)],
            gracePeriod: 30, signals: [SIGWINCH], onEvent: { events.append($0) })
        let running = Task { try await group.run() }
        #expect(await eventually { [firstLog, secondLog].allSatisfy { log in log.values.contains { $0.hasPrefix("fire started nap#0@") } } })
        kill(getpid(), SIGWINCH)
        let ending = try await running.value
        #expect(ending == .shutDown)
        #expect(events.values == [.gracefulShutdown(signal: SIGWINCH)])
        for (fixture, log) in [(first, firstLog), (second, secondLog)] {
            #expect(log.values.last == "daemon stopped", "\(log.values)")
            #expect(log.values.contains("daemon stopping running=1 grace=0s"))
            #expect(try Self.runs(fixture).map(\.status) == [.succeeded], "the run in flight finished: \(log.values)")
        }
    }

    struct Broken: Error, CustomStringConvertible {
        var description: String { "the console cannot listen" }
    }

    /// A service that fails once the daemon's run is under way.
    struct FailingService: Service {
        let after: @Sendable () async -> Void
        func run() async throws {
            await after()
            throw Broken()
        }
    }

    @Test func aServiceThatFailsStopsTheOtherAndTheGroupThrowsItsError() async throws {
        let fixture = HostFixture()
        let log = Recorder<String>()
        let daemon = try Self.daemon(fixture, seconds: 600, log: log)
        let failing = FailingService {
            _ = await eventually { log.values.contains { $0.hasPrefix("fire started nap#0@") } }
        }
        let events = Recorder<ServiceGroup.Event>()
        let group = ServiceGroup(services: [daemon, failing], gracePeriod: 0.2, signals: [], onEvent: { events.append($0) })
        await #expect(throws: Broken.self) { try await group.run() }
        #expect(events.values == [.serviceEnded(index: 1, error: "the console cannot listen"), .graceOver])
        #expect(log.values.contains("daemon grace over: cancelling 1 run(s)"), "\(log.values)")
        #expect(log.values.last == "daemon stopped")
        #expect(try Self.runs(fixture).map(\.status) == [.rolledBack], "cancelled after the grace period, the run rolled back")
    }

    @Test func aSecondSignalCancelsAtOnce() async throws {
        let fixture = HostFixture()
        let log = Recorder<String>()
        let group = ServiceGroup(services: [try Self.daemon(fixture, seconds: 600, log: log)], gracePeriod: 600, signals: [SIGVTALRM])
        let running = Task { try await group.run() }
        #expect(await eventually { log.values.contains { $0.hasPrefix("fire started nap#0@") } })
        kill(getpid(), SIGVTALRM)
        #expect(await eventually { log.values.contains { $0.hasPrefix("daemon stopping") } })
        kill(getpid(), SIGVTALRM)
        #expect(try await running.value == .interrupted)
        #expect(try Self.runs(fixture).map(\.status) == [.rolledBack])
    }

    @Test func gracefulShutdownHandlersRunOnceAndAtOnceWhenAlreadyAsked() async {
        let shutdown = GracefulShutdown()
        let calls = Recorder<String>()
        await GracefulShutdown.$current.withValue(shutdown) {
            await withGracefulShutdownHandler {
                shutdown.request()
                shutdown.request()
            } onGracefulShutdown: {
                calls.append("during")
            }
            await withGracefulShutdownHandler {
                calls.append("operation")
            } onGracefulShutdown: {
                calls.append("already")
            }
            await GracefulShutdown.requested()
        }
        #expect(calls.values == ["during", "already", "operation"])
        #expect(shutdown.isRequested)
    }
}

