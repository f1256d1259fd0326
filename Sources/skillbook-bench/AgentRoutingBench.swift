import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookSkills

/// The agent's layers 1 and 2 on the request set of `Tests/SkillbookAgentTests/Fixtures/requests.json`
/// (run from the package root):
/// - `agent_routing_top1`: % of requests routed exactly as the set says (layer, target, inputs);
/// - `agent_uncovered_refused`: % of the requests nothing covers that were refused (layer none);
/// - `agent_decision_p50_200_skills`, `agent_decision_p95_200_skills`: µs per decision with the
///   shipped playbooks and 200 skills (the shipped ones plus synthesized ones), over every request
///   five times (with `--cpu`, the thread's CPU time per decision).
struct AgentRoutingBench: Sendable {
    var registry: SkillRegistry

    struct Row {
        var request: String
        var layer: String
        var target: String?
        var inputs: Value
    }

    /// Tuesday 2026-12-01 09:15 in Berlin, as the tests use.
    let clock = Matcher.ReferenceTime(now: Date(timeIntervalSince1970: 1_796_112_900), timeZone: TimeZone(identifier: "Europe/Berlin")!)

    func rows() throws -> [Row] {
        let path = "Tests/SkillbookAgentTests/Fixtures/requests.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchError("cannot read \(path): run the bench from the package root")
        }
        return (try JSONText.decode(text).arrayValue ?? []).map { row in
            Row(
                request: row["request"]?.stringValue ?? "", layer: row["layer"]?.stringValue ?? "",
                target: row["target"]?.stringValue, inputs: row["inputs"] ?? [:])
        }
    }

    /// The shipped playbooks and skills (built-in and `Skills/` manifests).
    func shippedTargets() throws -> [RouteTarget] {
        var registry = self.registry
        for skill in ManifestLoader().load(directory: URL(fileURLWithPath: "Skills")).skills { try? registry.register(skill) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: "Playbooks")) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        let playbooks = names.compactMap { name -> Playbook? in
            guard let text = try? String(contentsOfFile: "Playbooks/\(name)", encoding: .utf8) else { return nil }
            return PlaybookLoader(registry: registry).load(text, file: name).playbook
        }
        return playbooks.map(RouteTarget.init(playbook:))
            + registry.descriptors.filter { $0.id != "bench.noop" }.map(RouteTarget.init(skill:))
    }

    /// Skills made up to bring the count to `count`, each with examples and a typed slot.
    static func synthesized(count: Int) -> [RouteTarget] {
        let verbs = ["archive", "convert", "translate", "resize", "encrypt", "schedule", "print", "scan", "upload", "sync",
                     "compress", "rotate", "rate", "share", "publish", "export", "import", "index", "validate", "render"]
        let nouns = ["invoice", "photo", "contract", "playlist", "calendar", "budget", "recipe", "ticket", "receipt", "podcast"]
        let chinese = ["发票", "照片", "合同", "歌单", "日历", "预算", "菜谱", "工单", "收据", "播客"]
        var targets: [RouteTarget] = []
        outer: for (v, verb) in verbs.enumerated() {
            for (n, noun) in nouns.enumerated() {
                guard targets.count < count else { break outer }
                targets.append(
                    RouteTarget(
                        layer: .skill, name: "synth\(v).\(noun)", title: "\(verb) a \(noun)",
                        summary: "Does \(verb) to a \(noun) and returns its id.",
                        phrases: ["\(verb) the \(noun) {name}", "\(verb) my \(noun)s", "处理\(chinese[n])\(v){name}"],
                        tags: [noun], inputs: [("name", .string())], required: ["name"]))
            }
        }
        return targets
    }

    /// CPU time of the calling thread (with `--cpu`: a decision's own cost, without waiting for a core).
    static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    func run() throws -> [Figure] {
        let rows = try rows()
        let shipped = try shippedTargets()
        let matcher = Matcher(targets: shipped)
        var right = 0
        var uncovered = 0
        var refused = 0
        for row in rows {
            let decision = matcher.decide(row.request, clock: clock)
            if decision.layer.rawValue == row.layer, decision.target == row.target, Value.object(decision.inputs) == row.inputs {
                right += 1
            }
            if row.layer == "none" {
                uncovered += 1
                if decision.layer == .none { refused += 1 }
            }
        }
        let skills = shipped.filter { $0.layer == .skill }.count
        let big = Matcher(targets: shipped + Self.synthesized(count: max(0, 200 - skills)))
        var times: [Double] = []
        let clockTime = ContinuousClock()
        for _ in 0..<5 {
            for row in rows {
                if Measure.processorTime {
                    let start = Self.threadSeconds()
                    _ = big.decide(row.request, clock: clock)
                    times.append(Self.threadSeconds() - start)
                } else {
                    times.append(clockTime.measure { _ = big.decide(row.request, clock: clock) }.seconds)
                }
            }
        }
        times.sort()
        func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p))] }
        return [
            Figure(name: "agent_routing_top1", value: 100 * Double(right) / Double(max(rows.count, 1)), unit: "%"),
            Figure(name: "agent_uncovered_refused", value: 100 * Double(refused) / Double(max(uncovered, 1)), unit: "%"),
            Figure(name: "agent_decision_p50_200_skills", value: percentile(0.5) * 1e6, unit: "µs"),
            Figure(name: "agent_decision_p95_200_skills", value: percentile(0.95) * 1e6, unit: "µs"),
        ]
    }
}
