import Foundation
import SkillbookCore
import SkillbookSchedule
import Testing

/// The committed table of `scripts/cron_vectors.py`: (expression, zone, start) → the next five
/// fires by cronsim, or by Debian's rule where cronsim departs from it (rows with a `note`).
struct CronVector: Decodable {
    var expr: String
    var zone: String
    var start: String
    var fires: [String]
    var note: String?
}

struct CronVectorTable: Decodable {
    var rows: [CronVector]

    static func load() throws -> CronVectorTable {
        let url = try #require(Bundle.module.url(forResource: "cron_vectors", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(CronVectorTable.self, from: Data(contentsOf: url))
    }
}

@Suite struct CronVectorsTests {
    @Test func everyRowOfTheTableMatches() throws {
        let table = try CronVectorTable.load()
        #expect(table.rows.count >= 500)
        #expect(Set(table.rows.map(\.zone)).count >= 8)
        for zone in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Africa/Cairo", "Pacific/Apia", "UTC"] {
            #expect(table.rows.contains { $0.zone == zone }, "no row in \(zone)")
        }
        var failures: [String] = []
        for row in table.rows {
            let zone = try #require(TimeZone(identifier: row.zone))
            let expression = try CronParser.parse(row.expr).get()
            let start = try #require(ISOTime.parse(row.start, in: zone))
            let fires = CronSchedule(expression, zone: zone).fires(after: start, count: 5).map { ISOTime.format($0, in: zone) }
            if fires != row.fires {
                failures.append("\(row.expr) in \(row.zone) from \(row.start): got \(fires), want \(row.fires)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) rows differ:\n\(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test func theTableCoversTheCasesThatMatter() throws {
        let expressions = Set(try CronVectorTable.load().rows.map(\.expr))
        for needed in ["0 0 13 * 5", "0 0 1 * */2", "0 12 29 2 *", "0 0 31 * *", "30 2 * * *", "*/10 * * * *", "@daily", "@yearly"] {
            #expect(expressions.contains(needed), "\(needed)")
        }
    }
}
