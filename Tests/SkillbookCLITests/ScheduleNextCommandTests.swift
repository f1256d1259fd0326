import SkillbookTesting
import Foundation
import SkillbookTesting
import Testing

@Suite struct ScheduleNextCommandTests {
    @Test func printsFireTimesWithOffsets() async {
        let run = await skillbook(
            ["schedule", "next", "30 2 * * *", "--timezone", "Europe/Berlin", "--from", "2026-03-28T12:00", "--count", "3"],
            in: TemporaryDirectory())
        #expect(run.code == 0)
        #expect(run.err.isEmpty)
        #expect(run.out == "2026-03-29T03:00:00+02:00\n2026-03-30T02:30:00+02:00\n2026-03-31T02:30:00+02:00\n")
    }

    @Test func badArgumentsExitTwoWithEveryProblem() async {
        let run = await skillbook(
            ["schedule", "next", "* 25 * * *", "--timezone", "Mars/Olympus", "--count", "3"], in: TemporaryDirectory())
        #expect(run.code == 2)
        #expect(run.out.isEmpty)
        #expect(
            run.err == """
                skillbook: error: --timezone: unknown time zone 'Mars/Olympus'
                skillbook: error: cron '* 25 * * *': field 2 (hour): 25 is out of range 0-23

                """)
    }

    @Test func aFromEndingInASignExitsTwo() async {
        let run = await skillbook(["schedule", "next", "* * * * *", "--from", "2026-03-29T01:30+"], in: TemporaryDirectory())
        #expect(run.code == 2)
        #expect(run.out.isEmpty)
        #expect(run.err == "skillbook: error: --from: '2026-03-29T01:30+' is not a time such as 2026-03-29T01:30 or 2026-03-29T01:30:00+01:00\n")
    }

    /// A schedule that never fires says so (it had hung: every match in a DST gap, for ever).
    @Test func aScheduleWithoutFiresSaysSo() async {
        let run = await skillbook(
            ["schedule", "next", "* 2 8 3 */7", "--timezone", "America/New_York", "--from", "2026-03-06T00:00"], in: TemporaryDirectory())
        #expect(run.code == 0)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("no fire within 50 years"))
    }
}
