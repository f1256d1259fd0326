import Foundation
import SkillbookAgent
import SkillbookCore
import Testing

/// `Fixtures/routing_set.json`, the generalisation set: written apart from `requests.json` (which
/// the thresholds were calibrated on), in two halves by a seeded split. Every row routes as written,
/// except those marked `known`, which must still fail exactly as `got` says: a fix that makes one
/// pass removes its mark, and a change that makes it fail differently shows.
struct RoutingSetRow: Sendable, CustomTestStringConvertible {
    var row: RoutingSet.Row
    var testDescription: String { "[\(RoutingSet.half(of: row.request).rawValue)] \(row.request)" }

    static let set: RoutingSet = {
        let url = packageRoot.appendingPathComponent("Tests/SkillbookAgentTests/Fixtures/routing_set.json")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? "[]"
        return (try? RoutingSet(json: text)) ?? (try! RoutingSet(json: "[]"))
    }()

    static let all = set.rows.map(RoutingSetRow.init)
}

@Suite struct RoutingSetTests {
    @Test func theSetIsLargeHalfChineseAndAFifthUncovered() {
        let rows = RoutingSetRow.set.rows
        #expect(rows.count >= 600)
        let chinese = rows.filter { isChinese($0.request) }
        #expect(Double(chinese.count) / Double(rows.count) >= 0.48)
        #expect(Double(rows.filter { $0.layer == "none" }.count) / Double(rows.count) >= 0.2)
        #expect(Set(rows.map(\.request)).count == rows.count, "a request is written twice")
    }

    @Test func theSplitIsFixedAndRoughlyEven() {
        let tuning = RoutingSetRow.set.rows(in: .tuning).count
        let total = RoutingSetRow.set.rows.count
        #expect(tuning > total * 2 / 5 && tuning < total * 3 / 5)
        // The split depends on the text and the seed only.
        #expect(RoutingSet.half(of: "note: buy eggs") == RoutingSet.half(of: "note: buy eggs"))
        #expect(Set(["tidy up /tmp/x", "backup ~/code/y", "记录：周五交报告", "wait for 20 seconds", "早上好，写日记", "what's in /tmp/x"]
            .map(RoutingSet.half)).count == 2)
    }

    @Test(arguments: RoutingSetRow.all)
    func routesAsWritten(_ item: RoutingSetRow) {
        let row = item.row
        let outcome = RoutingSet.outcome(row, shippedMatcher.decide(row.request, clock: berlinClock))
        let wanted = "\(row.layer) \(row.target ?? "-") \(JSONText.encode(row.inputs))"
        if let known = row.known {
            #expect(!outcome.exact, "marked known (\(known)) but now routes as written: remove the mark")
            #expect(outcome.got == row.got, "a known failure (\(known)) fails differently now")
        } else {
            #expect(outcome.exact, "want \(wanted), got \(outcome.got)")
        }
    }
}
