import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookSQLite
import Testing

/// What `skillbook schedule` shows comes from the fire ledger; a ledger it cannot read is an
/// error, not a schedule that never fired.
@Suite struct ScheduleOverviewTests {
    static let hourly = """
        name: hourly
        schedule: { cron: "0 * * * *", timezone: UTC }
        steps:
          - id: a
            skill: debug.echo
            with: { value: hi }
        """

    @Test func aLedgerThatCannotBeReadIsAnErrorNotANeverFiredSchedule() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/hourly.yaml", Self.hourly)
        let host = fixture.host()
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let overview = try await host.scheduleOverview(now: now, count: 1)
        #expect(overview.entries.map(\.playbook) == ["hourly"])

        _ = try StateDatabase.openSeparately(stateDirectory: fixture.state).run(
            "INSERT INTO schedule_entries (playbook, entry, state, updated) VALUES ('hourly', 0, '[1, 2, 3]', 0)")
        do {
            _ = try await host.scheduleOverview(now: now, count: 1)
            Issue.record("a malformed ledger entry was shown as a schedule")
        } catch {
            guard case .store(let store) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(store.message.contains("schedule state of hourly#0 is malformed"), "\(store.message)")
        }
    }
}
