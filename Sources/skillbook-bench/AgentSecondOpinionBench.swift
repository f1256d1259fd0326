import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookSkills
import SkillbookSystem

/// `agent_second_opinion_*`: the model as a second opinion (`SecondOpinion`) on the rows of the
/// routing set (`Tests/SkillbookAgentTests/Fixtures/routing_set.json`, run from the package root)
/// where the matcher is unsure (`SecondOpinion.applies` with `underThreshold`: one clause, layer
/// none, a near tie or a best candidate from 0.2 up to the threshold; the flow asks about near ties
/// only), for each half of its split (`RoutingSet.half`):
/// - `…_{tuning,held-out}_unsure`: how many rows of the half that is;
/// - `…_matcher_top1`: % of those rows the matcher alone routes right (uncovered rows refused);
/// - `…_model_top1` / `…_model_exact`: % routed right / with exactly the written inputs once the
///   model chose (its "none", or a failed call, keeps the matcher's decision);
/// - `…_near_ties` / `…_near_ties_model_top1`: how many of them are near ties, and % of those the
///   model routes right;
/// - `…_flow_top1`: % right as the flow decides them (the model for near ties only);
/// - `…_latency_p50` / `…_latency_p95`: seconds the model call adds to such a request.
/// `SKILLBOOK_EVAL_HALF=tuning` runs only the tuning half.
/// Needs `SKILLBOOK_MODEL_URL` (and `SKILLBOOK_MODEL`); without it only the `_unsure` counts are
/// printed. Each row's verdict goes to stderr for the tuning half only (`SKILLBOOK_ROUTING_FAILURES=1`),
/// never the held-out half's.
struct AgentSecondOpinionBench: Sendable {
    var shipped: AgentRoutingBench

    func run(environment: [String: String]) async throws -> [Figure] {
        let path = "Tests/SkillbookAgentTests/Fixtures/routing_set.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchError("cannot read \(path): run the bench from the package root")
        }
        let set = try RoutingSet(json: text)
        let (targets, offers) = try shippedTargetsAndOffers()
        let matcher = Matcher(targets: targets)
        let clock = shipped.clock
        let client = environment["SKILLBOOK_MODEL_URL"].flatMap(URL.init(string:)).map { url in
            OpenAIChatClient(http: SystemHTTPClient(), baseURL: url, model: environment["SKILLBOOK_MODEL"], apiKey: environment["SKILLBOOK_API_KEY"])
        }
        if client == nil {
            FileHandle.standardError.write(Data("agent_second_opinion: SKILLBOOK_MODEL_URL is not set (make model prints it); only the counts\n".utf8))
        }
        let printTuning = environment["SKILLBOOK_ROUTING_FAILURES"] == "1"
        // SKILLBOOK_EVAL_HALF=tuning: only the tuning half (while tuning the prompt).
        let halves = RoutingSet.Half.allCases.filter { environment["SKILLBOOK_EVAL_HALF"].map($0.rawValue.elementsEqual) ?? true }
        var figures: [Figure] = []
        for half in halves {
            let name = "agent_second_opinion_\(half.rawValue)"
            let unsure = set.rows(in: half).compactMap { row -> (RoutingSet.Row, RouteDecision)? in
                let decision = matcher.decide(row.request, clock: clock)
                return SecondOpinion.applies(to: decision, request: row.request, underThreshold: true) ? (row, decision) : nil
            }
            figures.append(Figure(name: "\(name)_unsure", value: Double(unsure.count), unit: "rows"))
            guard let client else { continue }
            let opinion = SecondOpinion(
                client: client, prompt: PromptBuilder(now: clock.now, timeZone: clock.timeZone),
                budget: PlanningBudget(maxSeconds: Double(environment["SKILLBOOK_EVAL_SECONDS"] ?? "") ?? 120))
            var matcherRight = 0, modelRight = 0, modelExact = 0, ties = 0, tiesRight = 0, flowRight = 0
            var times: [Double] = []
            for (i, (row, decision)) in unsure.enumerated() {
                let alone = RoutingSet.outcome(row, decision).routed
                if alone { matcherRight += 1 }
                let started = ContinuousClock.now
                let verdict = await opinion.choose(row.request, offers: SecondOpinion.offers(for: decision, from: offers))
                let elapsed = ContinuousClock.now - started
                times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
                var chosen = decision
                if case .chose(let target, let inputs) = verdict, let routed = matcher.routed(decision, to: target, inputs: inputs) {
                    chosen = routed
                }
                let outcome = RoutingSet.outcome(row, chosen)
                if outcome.routed { modelRight += 1 }
                if decision.question != nil {
                    ties += 1
                    if outcome.routed { tiesRight += 1 }
                }
                // As the flow does: the model's choice for a near tie, the matcher's decision otherwise.
                if decision.question != nil ? outcome.routed : alone { flowRight += 1 }
                if outcome.exact { modelExact += 1 }
                if half == .tuning, printTuning {
                    let wanted = "\(row.layer) \(row.target ?? "-") \(JSONText.encode(row.inputs))"
                    let line = "[\(i + 1)/\(unsure.count)] \(outcome.exact ? "ok " : "BAD") \(row.request)\n    want \(wanted)\n    got  \(outcome.got) (\(verdict))\n"
                    FileHandle.standardError.write(Data(line.utf8))
                }
            }
            func percent(_ n: Int) -> Double { 100 * Double(n) / Double(max(1, unsure.count)) }
            let sorted = times.sorted()
            func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            figures += [
                Figure(name: "\(name)_matcher_top1", value: percent(matcherRight), unit: "%"),
                Figure(name: "\(name)_model_top1", value: percent(modelRight), unit: "%"),
                Figure(name: "\(name)_model_exact", value: percent(modelExact), unit: "%"),
                Figure(name: "\(name)_near_ties", value: Double(ties), unit: "rows"),
                Figure(name: "\(name)_near_ties_model_top1", value: 100 * Double(tiesRight) / Double(max(1, ties)), unit: "%"),
                Figure(name: "\(name)_flow_top1", value: percent(flowRight), unit: "%"),
                Figure(name: "\(name)_latency_p50", value: percentile(0.5), unit: "s"),
                Figure(name: "\(name)_latency_p95", value: percentile(0.95), unit: "s"),
            ]
        }
        return figures
    }

    /// The shipped playbooks and skills as route targets and as offers.
    func shippedTargetsAndOffers() throws -> ([RouteTarget], [PlanOffer]) {
        var registry = shipped.registry
        for skill in ManifestLoader().load(directory: URL(fileURLWithPath: "Skills")).skills { try? registry.register(skill) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: "Playbooks")) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        let frozen = registry
        let playbooks = names.compactMap { name -> Playbook? in
            guard let text = try? String(contentsOfFile: "Playbooks/\(name)", encoding: .utf8) else { return nil }
            return PlaybookLoader(registry: frozen).load(text, file: name).playbook
        }
        let skills = registry.descriptors.filter { $0.id != "bench.noop" }
        return (
            playbooks.map(RouteTarget.init(playbook:)) + skills.map(RouteTarget.init(skill:)),
            playbooks.map(PlanOffer.init(playbook:)) + skills.map(PlanOffer.init(skill:))
        )
    }
}
