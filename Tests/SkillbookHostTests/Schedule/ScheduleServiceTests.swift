import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSQLite
import SkillbookTesting
import Testing

/// The daemon's own checks say when they fail.
@Suite struct ScheduleServiceTests {
    static let yearly = """
        name: yearly
        schedule: { cron: "0 0 1 1 *", timezone: UTC }
        steps:
          - id: a
            skill: debug.echo
            with: { value: hi }
        """

    /// The watcher looks for fires a dead daemon claimed and never started every 2 s; when it
    /// cannot, the log says so (each error once, not every 2 s).
    @Test func aFailedCheckForOrphanedFiresIsLogged() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/yearly.yaml", Self.yearly)
        var configuration = fixture.configuration()
        configuration.clock = SystemClock()
        let log = Recorder<String>()
        let service = try ScheduleService(host: PlaybookHost(configuration), grace: 0, log: { log.append($0) })
        let running = Task { await service.run() }
        _ = try StateDatabase.openSeparately(stateDirectory: fixture.state).execute("DROP TABLE fires")
        let deadline = Date().addingTimeInterval(30)
        while !log.values.contains(where: { $0.hasPrefix("orphaned fires not checked error=") }), Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .seconds(2.5))
        running.cancel()
        await running.value
        let failures = log.values.filter { $0.hasPrefix("orphaned fires not checked error=") }
        #expect(!failures.isEmpty, "\(log.values)")
        #expect(Set(failures).count == failures.count, "each error once, not at every check: \(log.values)")
        #expect(failures.first?.contains("fires") == true, "\(failures)")
        #expect(log.values.last == "daemon stopped")
    }
}
