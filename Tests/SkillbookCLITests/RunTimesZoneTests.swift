import Foundation
import SkillbookTesting
import Testing

/// Issue 27 item 11: `runs`, `runs show` and `rollback` show times in the workspace's zone, with
/// its offset.
@Suite struct RunTimesZoneTests {
    @Test func runsAndRunsShowUseTheWorkspacesZoneWithItsOffset() async throws {
        let directory = TemporaryDirectory()
        directory.write("skillbook.yaml", "timezone: Asia/Tokyo\n")
        let before = Date()
        let made = await skillbook(["call", "notes.create", "-i", "title=t"], in: directory)
        #expect(made.code == 0, "\(made.err)")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let day = calendar.dateComponents([.year, .month, .day], from: before)
        let date = String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)

        let runs = await skillbook(["runs"], in: directory)
        #expect(runs.code == 0, "\(runs.err)")
        let row = try #require(runs.out.split(separator: "\n").dropFirst().first.map(String.init), "\(runs.out)")
        #expect(row.range(of: #"  \#(date) \d\d:\d\d:\d\d \+09:00  "#, options: .regularExpression) != nil, "\(runs.out)")

        let id = String(row.prefix(8))
        let show = await skillbook(["runs", "show", id], in: directory)
        #expect(show.code == 0, "\(show.err)")
        #expect(show.out.range(of: #"started +\#(date) \d\d:\d\d:\d\d \+09:00"#, options: .regularExpression) != nil, "\(show.out)")
    }
}
