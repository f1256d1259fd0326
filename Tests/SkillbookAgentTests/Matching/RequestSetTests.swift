import Foundation
import SkillbookAgent
import SkillbookCore
import Testing

/// One row of `Fixtures/requests.json`: a request and the route it must take.
struct RequestRow: Sendable, CustomTestStringConvertible {
    var request: String
    var layer: String
    var target: String?
    var inputs: Value

    var testDescription: String { request }

    static let all: [RequestRow] = {
        let url = packageRoot.appendingPathComponent("Tests/SkillbookAgentTests/Fixtures/requests.json")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? "[]"
        let rows = (try? JSONText.decode(text))?.arrayValue ?? []
        return rows.map { row in
            RequestRow(
                request: row["request"]?.stringValue ?? "", layer: row["layer"]?.stringValue ?? "",
                target: row["target"]?.stringValue, inputs: row["inputs"] ?? [:])
        }
    }()
}

@Suite struct RequestSetTests {
    @Test func theSetIsLargeMixedAndHasUncoveredRequests() {
        let rows = RequestRow.all
        #expect(rows.count >= 150)
        let chinese = rows.filter { isChinese($0.request) }
        #expect(Double(chinese.count) / Double(rows.count) >= 0.45)
        let uncovered = rows.filter { $0.layer == "none" }
        #expect(Double(uncovered.count) / Double(rows.count) >= 0.2)
    }

    @Test(arguments: RequestRow.all)
    func routesAsWritten(_ row: RequestRow) {
        let decision = shippedMatcher.decide(row.request, clock: berlinClock)
        let shown = JSONText.encode(decision.json)
        #expect(decision.layer.rawValue == row.layer, "\(shown)")
        #expect(decision.target == row.target, "\(shown)")
        #expect(Value.object(decision.inputs) == row.inputs, "\(shown)")
    }
}
