import Foundation
import SkillbookAgent
import SkillbookCore

/// `agent_routing`: the matcher on the generalisation set `Tests/SkillbookAgentTests/Fixtures/routing_set.json`
/// (run from the package root), for each half of its seeded split (`RoutingSet.half`):
/// - `agent_routing_{tuning,held-out}_top1`: % of requests routed to the written layer and target;
/// - `agent_routing_{tuning,held-out}_slots_exact`: % of requests with a target routed there with
///   exactly the written inputs;
/// - `agent_routing_{tuning,held-out}_uncovered_refused`: % of the requests nothing covers that were refused.
/// With `SKILLBOOK_ROUTING_FAILURES=1` the tuning half's wrong rows go to stderr; the held-out half's
/// never do, so tuning cannot look at them. `SKILLBOOK_ROUTING_FAILURES=all` prints every wrong row of
/// both halves as JSON lines, to mark them `known` once tuning is over.
struct AgentRoutingSetBench: Sendable {
    var shipped: AgentRoutingBench

    func run() throws -> [Figure] {
        let path = "Tests/SkillbookAgentTests/Fixtures/routing_set.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchError("cannot read \(path): run the bench from the package root")
        }
        let set = try RoutingSet(json: text)
        let matcher = Matcher(targets: try shipped.shippedTargets())
        let clock = shipped.clock
        if ProcessInfo.processInfo.environment["SKILLBOOK_ROUTING_FAILURES"] == "1" {
            for row in set.rows(in: .tuning) {
                let outcome = RoutingSet.outcome(row, matcher.decide(row.request, clock: clock))
                guard !outcome.exact else { continue }
                let wanted = "\(row.layer) \(row.target ?? "-") \(JSONText.encode(row.inputs))"
                FileHandle.standardError.write(Data("\(row.request)\n    want \(wanted)\n    got  \(outcome.got)\n".utf8))
            }
        }
        // After tuning only: every wrong row of both halves as JSON lines, to mark them `known` in the set.
        if ProcessInfo.processInfo.environment["SKILLBOOK_ROUTING_FAILURES"] == "all" {
            for row in set.rows {
                let outcome = RoutingSet.outcome(row, matcher.decide(row.request, clock: clock))
                guard !outcome.exact else { continue }
                let line: Value = ["request": .string(row.request), "got": .string(outcome.got), "half": .string(RoutingSet.half(of: row.request).rawValue)]
                FileHandle.standardError.write(Data((JSONText.encode(line) + "\n").utf8))
            }
        }
        var figures: [Figure] = []
        for half in RoutingSet.Half.allCases {
            let f = set.figures(half) { matcher.decide($0, clock: clock) }
            let name = "agent_routing_\(half.rawValue)"
            figures += [
                Figure(name: "\(name)_top1", value: f.top1, unit: "%"),
                Figure(name: "\(name)_slots_exact", value: f.slotsExact, unit: "%"),
                Figure(name: "\(name)_uncovered_refused", value: f.uncoveredRefused, unit: "%"),
            ]
        }
        return figures
    }
}
