import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookSkills
import SkillbookSQLite
import SkillbookSystem
import SkillbookTesting
import Synchronization

/// `agent_model_*`: the plan requests of `Tests/SkillbookAgentTests/Fixtures/plan_requests.json`
/// taken as `ask --explain --json` takes them — the host's `AgentFlow` over this package's
/// workspace (`Playbooks/`, `Skills/`) with the model of `SKILLBOOK_MODEL_URL` as its planner — and
/// each answer judged by `PlanRunJudge` (its plan run in a scratch copy of the fixture world, as
/// `ask --yes` would run it there, web addresses on 127.0.0.1). A request that never reaches the
/// planner (routed to one skill, a near tie, missing inputs) counts as wrong. Run from the package
/// root; needs `SKILLBOOK_MODEL_URL` (`make model`, then `make eval-agent`).
///
/// Figures, for each half of the seeded split (`ReferencePlan.half`; the held-out one is the figure):
/// plan requests that reached the planner, plans passing checker and lint, plans correct by the
/// executing judge, declines right (%); unknown skills named in any answer, answers lost to a
/// server error (HTTP 5xx) or an unreachable model (counts); latency p50/p95 of requests that
/// reached the planner (s). `SKILLBOOK_EVAL_HALF=tuning` (or `held-out`) runs one half only,
/// `SKILLBOOK_EVAL_ONLY=1,5` only those rows (1-based), `SKILLBOOK_EVAL_SECONDS` (300) and
/// `SKILLBOOK_EVAL_SAMPLES` (2) set the planning budget per request. Each request's outcome is
/// printed to stderr as it finishes, with its half.
struct AgentModelBench: Sendable {
    let state: URL
    let clock = Matcher.ReferenceTime(now: Date(timeIntervalSince1970: 1_796_112_900), timeZone: TimeZone(identifier: "Europe/Berlin")!)
    static let fixture = "Tests/SkillbookAgentTests/Fixtures/plan_requests.json"

    func run(environment: [String: String]) async throws -> [Figure] {
        if environment["SKILLBOOK_EVAL_DRY"] != nil { return try dryRun(environment: environment) }
        guard environment["SKILLBOOK_MODEL_URL"].flatMap(URL.init(string:)) != nil else {
            FileHandle.standardError.write(Data("agent_model: SKILLBOOK_MODEL_URL is not set (make model prints it); skipped\n".utf8))
            return []
        }
        // Your own requests (no reference plan: only reaching the planner and passing the checks count).
        let references = try environment["SKILLBOOK_EVAL_REQUESTS"].map(Self.requests) ?? Self.references(environment)
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var configuration = HostConfiguration.workspace(in: root, environment: environment, state: state.path)
        guard var settings = configuration.model else { throw BenchError("SKILLBOOK_MODEL_URL is not an http(s) URL") }
        settings.budget.maxSeconds = Double(environment["SKILLBOOK_EVAL_SECONDS"] ?? "") ?? 300
        settings.budget.samples = Int(environment["SKILLBOOK_EVAL_SAMPLES"] ?? "") ?? 2
        configuration.model = settings
        let model = settings
        let host = PlaybookHost(configuration)
        let workspace = try await host.agentWorkspace()
        let judge = try PlanRunJudge(skills: root.appendingPathComponent("Skills"), clock: clock)
        let known = Set(workspace.registry.descriptors.map(\.id) + workspace.playbooks.map(\.name))

        var tallies: [ReferencePlan.Half: Tally] = [:]
        for (i, reference) in references.enumerated() {
            // What `PlaybookHost.agentFlow` builds, with the model's answers counted on the way.
            let http = CountingHTTP(base: SystemHTTPClient())
            let flow = AgentFlow(
                matcher: workspace.matcher, checker: { workspace.checker(clock: $0) },
                planner: { workspace.planner(model, http: http, clock: $0) }, offers: workspace.offers, runner: NothingRuns(),
                secrets: workspace.secrets)
            let probe = PlanningProbe()
            let start = Date()
            let result = try await flow.respond(to: reference.request, clock: clock, options: AgentFlow.Options(decideOnly: true), asking: probe)
            let seconds = Date().timeIntervalSince(start)
            var tally = tallies[reference.half] ?? Tally()
            for case .plan(let plan) in http.answers {
                let unknown = plan.steps.map(\.target).filter { !known.contains($0) }
                tally.unknownSkills += unknown.count
                tally.unknownNames.formUnion(unknown.map { $0.isEmpty ? "(empty)" : $0 })
            }
            tally.serverErrors += http.serverErrors
            if case .modelFailed = result.outcome { tally.lost += 1 }
            let answer: ModelAnswer?
            var passes = false
            switch result.outcome {
            case .decided where result.run?.layer == .plan:
                answer = (result.run?.plan?.plan).map(ModelAnswer.plan)
                passes = true
            case .modelAsks(let question): answer = .question(question)
            default: answer = nil
            }
            var verdict: PlanRunJudge.Verdict
            if !reference.decline && !probe.reachedPlanner {
                verdict = PlanRunJudge.Verdict(verdict: .wrong("never reached the planner: \(result.outcome)"), ran: false)
            } else {
                verdict = await judge.judge(answer, against: reference)
            }
            if reference.decline {
                tally.declines += 1
                if verdict.correct { tally.declinesRight += 1 }
            } else {
                tally.plans += 1
                if probe.reachedPlanner {
                    tally.reached += 1
                    tally.times.append(seconds)
                    tally.calls[min(http.calls, 4), default: 0] += 1
                    if http.calls == 1 { tally.oneCallTimes.append(seconds) }
                }
                if passes { tally.passed += 1 }
                if verdict.correct { tally.correct += 1 }
            }
            tallies[reference.half] = tally
            let shown: String
            switch result.outcome {
            case .decided: shown = result.run?.plan.map { JSONText.encode(.array($0.plan.json)) } ?? "\(result.decision.layer.rawValue) \(result.decision.target ?? "")"
            case .modelAsks(let question): shown = "question: \(question)"
            case .refused(let why, let diagnostics): shown = "refused: \(why) \(diagnostics)"
            case .modelFailed(let why): shown = "failed: \(why)"
            default: shown = "\(result.outcome)"
            }
            let line = "[\(i + 1)/\(references.count) \(reference.half.rawValue)] \(verdict.correct ? "ok " : "BAD") "
                + "\(String(format: "%.1f", seconds))s\(verdict.ran ? " ran" : "") \(reference.request)\n    \(shown)"
                + (verdict.correct ? "" : "\n    why: \(verdict.reason)") + "\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        var figures: [Figure] = []
        for half in ReferencePlan.Half.allCases {
            guard let tally = tallies[half] else { continue }
            figures += tally.figures(half)
        }
        return figures
    }

    /// One half's counts.
    struct Tally {
        var plans = 0, reached = 0, passed = 0, correct = 0, declines = 0, declinesRight = 0
        var unknownSkills = 0, serverErrors = 0, lost = 0
        /// The names the unknown steps gave (not the requests): what the model made up.
        var unknownNames: Set<String> = []
        var times: [Double] = []
        /// Requests that reached the planner by the model calls they took (4: four or more), and
        /// the latencies of those one call answered: where the tail comes from, in summary lines.
        var calls: [Int: Int] = [:]
        var oneCallTimes: [Double] = []

        func figures(_ half: ReferencePlan.Half) -> [Figure] {
            let name = "agent_model_" + (half == .tuning ? "tuning" : "heldout")
            let sorted = times.sorted()
            func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            func share(_ n: Int, _ of: Int) -> Double { of == 0 ? 0 : 100 * Double(n) / Double(of) }
            return [
                Figure(name: "\(name)_reached_planner", value: share(reached, plans), unit: "% of \(plans)"),
                Figure(name: "\(name)_plans_pass_check_lint", value: share(passed, plans), unit: "% of \(plans)"),
                Figure(name: "\(name)_plans_correct", value: share(correct, plans), unit: "% of \(plans)"),
                Figure(name: "\(name)_declines_correct", value: share(declinesRight, declines), unit: "% of \(declines)"),
                Figure(
                    name: "\(name)_unknown_skills", value: Double(unknownSkills),
                    unit: "steps" + (unknownNames.isEmpty ? "" : " (named " + unknownNames.sorted().joined(separator: ", ") + ")")),
                Figure(name: "\(name)_server_errors", value: Double(serverErrors), unit: "HTTP 5xx answers"),
                Figure(name: "\(name)_lost_requests", value: Double(lost), unit: "requests"),
                Figure(name: "\(name)_latency_p50", value: percentile(0.5), unit: "s"),
                Figure(name: "\(name)_latency_p95", value: percentile(0.95), unit: "s"),
                Figure(
                    name: "\(name)_one_call", value: share(calls[1] ?? 0, reached),
                    unit: "% of \(reached) (calls 1/2/3/4+: " + (1...4).map { "\(calls[$0] ?? 0)" }.joined(separator: "/")
                        + "; one call: max \(String(format: "%.1f", oneCallTimes.max() ?? 0)) s)"),
            ]
        }
    }

    /// The rows to run: `SKILLBOOK_EVAL_HALF` (tuning, held-out) and `SKILLBOOK_EVAL_ONLY` (1-based rows).
    static func references(_ environment: [String: String]) throws -> [ReferencePlan] {
        guard let text = try? String(contentsOfFile: fixture, encoding: .utf8) else { throw BenchError("cannot read \(fixture): run from the package root") }
        let all = (try JSONText.decode(text).arrayValue ?? []).compactMap(ReferencePlan.init)
        let only = Set((environment["SKILLBOOK_EVAL_ONLY"] ?? "").split(separator: ",").compactMap { Int($0) })
        let half = environment["SKILLBOOK_EVAL_HALF"].flatMap(ReferencePlan.Half.init(rawValue:))
        if let name = environment["SKILLBOOK_EVAL_HALF"], half == nil { throw BenchError("SKILLBOOK_EVAL_HALF is tuning or held-out, not \(name)") }
        return all.enumerated().filter { (only.isEmpty || only.contains($0.offset + 1)) && (half == nil || $0.element.half == half) }.map(\.element)
    }

    /// The requests of `file`, one a line (blank lines skipped), without reference plans.
    static func requests(_ file: String) throws -> [ReferencePlan] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw BenchError("cannot read \(file)") }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .compactMap { ReferencePlan(["request": .string($0)]) }
    }

    /// `SKILLBOOK_EVAL_DRY=1`: no model; each request's half, offers (with the matcher's confidence
    /// per clause), skeleton, prompt size and whether the planner could answer with its reference
    /// at all (`ReferencePlan.unplannable`); then per half the share it could. `=prompt` also prints
    /// the prompts. `SKILLBOOK_EVAL_REQUESTS=FILE` reads requests of your own instead, one a line,
    /// with no reference plan: how the matcher and the skeleton read requests nobody tuned on.
    func dryRun(environment: [String: String]) throws -> [Figure] {
        let own = environment["SKILLBOOK_EVAL_REQUESTS"]
        let references = try own.map(Self.requests) ?? Self.references(environment)
        let (registry, playbooks, _) = try workspace()
        let targets = playbooks.map(RouteTarget.init(playbook:)) + registry.descriptors.map(RouteTarget.init(skill:))
        let offers = playbooks.map(PlanOffer.init(playbook:)) + registry.descriptors.map(PlanOffer.init(skill:))
        let matcher = Matcher(targets: targets)
        let limit = environment["SKILLBOOK_EVAL_OFFERS"].flatMap(Int.init) ?? PromptBuilder.defaultOffers
        let prompt = PromptBuilder(now: clock.now, timeZone: clock.timeZone)
        var out = ""
        var plannable: [ReferencePlan.Half: (Int, Int)] = [:]
        for (i, reference) in references.enumerated() {
            let chosen = PromptBuilder.choose(offers, for: reference.request, matcher: matcher, clock: clock, limit: limit)
            // What the planner asks with (`Planner.plan(_:choosingFrom:…)`), without a model.
            let skeleton = PlanSkeleton.make(for: reference.request, offers: offers, matcher: matcher, clock: clock)
            let question = prompt.question(
                request: reference.request, offers: chosen,
                minSteps: PromptBuilder.minimumSteps(for: reference.request, matcher: matcher, clock: clock),
                maxSteps: Planner.maxSteps(for: reference.request, cap: PlanningBudget().maxSteps),
                skeleton: skeleton)
            let messages = question.messages
            let schema = JSONText.encode(question.responseFormat)
            let why = own != nil ? nil : reference.unplannable(offers: offers, matcher: matcher, clock: clock, limit: limit)
            if !reference.decline, own == nil {
                var count = plannable[reference.half] ?? (0, 0)
                count.1 += 1
                if why == nil { count.0 += 1 }
                plannable[reference.half] = count
            }
            out += "[\(i + 1) \(reference.half.rawValue)] \(reference.request)\n  offers: \(chosen.map(\.name).joined(separator: ", "))\n"
            if let why { out += "  UNPLANNABLE: \(why)\n" }
            for clause in CompoundSplitterProbe.clauses(reference.request, matcher: matcher, clock: clock) { out += "  clause \(clause)\n" }
            out += "  decision: \(RoutingSet.describe(matcher.decide(reference.request, clock: clock)))\n"
            if let shape = question.shape {
                let sequences = shape.sequences.map { $0.map { $0.names.joined(separator: "|") }.joined(separator: " → ") }
                out += "  skeleton: " + sequences.joined(separator: "  /  ") + "\n"
            }
            for doubt in skeleton?.doubts ?? [] {
                out += "  doubt: \(doubt.reason)\n"
            }
            out += "  prompt \(messages.map(\.content.count).reduce(0, +)) chars (user \(messages.last?.content.count ?? 0)), schema \(schema.count) chars\n"
            if environment["SKILLBOOK_EVAL_DRY"] == "prompt" { out += messages.map { "  --- \($0.role.rawValue)\n\($0.content)\n" }.joined() }
        }
        FileHandle.standardError.write(Data(out.utf8))
        return ReferencePlan.Half.allCases.compactMap { half in
            guard let (yes, of) = plannable[half] else { return nil }
            return Figure(
                name: "agent_model_\(half == .tuning ? "tuning" : "heldout")_reference_plannable",
                value: of == 0 ? 0 : 100 * Double(yes) / Double(of), unit: "% of \(of)")
        }
    }

    /// The shipped skills (built-in and `Skills/`), the playbooks of `Playbooks/`, and a library over them.
    func workspace() throws -> (SkillRegistry, [Playbook], PlaybookLibrary) {
        var registry = try SkillRegistry(BuiltinSkills.all(environment: SkillEnvironment(stateDirectory: state, stores: .sqlite(stateDirectory: state))))
        for skill in ManifestLoader().load(directory: URL(fileURLWithPath: "Skills")).skills { try? registry.register(skill) }
        let folder = URL(fileURLWithPath: "Playbooks")
        let library = PlaybookLibrary(
            source: { name in
                let url = folder.appendingPathComponent("\(name).yaml")
                return (try? String(contentsOf: url, encoding: .utf8)).map { ($0, url.path) }
            },
            names: { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map { String($0.prefix { $0 != "." }) } })
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        let frozen = registry
        let playbooks = names.compactMap { name -> Playbook? in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { return nil }
            return PlaybookLoader(registry: frozen, library: library).load(text, file: name).playbook
        }
        return (registry, playbooks, library)
    }
}

/// Passes the planner's requests to the model server and keeps what came back: each answer it
/// could read, and how many answers were server errors (HTTP 5xx).
final class CountingHTTP: HTTPClient {
    let base: any HTTPClient
    private let recorded = Mutex<(answers: [ModelAnswer], serverErrors: Int, calls: Int)>(([], 0, 0))

    init(base: any HTTPClient) {
        self.base = base
    }

    var answers: [ModelAnswer] { recorded.withLock { $0.answers } }
    var serverErrors: Int { recorded.withLock { $0.serverErrors } }
    /// Model calls made, answered or not.
    var calls: Int { recorded.withLock { $0.calls } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.calls += 1 }
        let response = try await base.send(request)
        if response.status >= 500 {
            recorded.withLock { $0.serverErrors += 1 }
        } else if let body = try? JSONText.decode(String(decoding: response.body, as: UTF8.self)),
            let content = body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue,
            let answer = try? PlanParser.parse(ChatResponse(content: content))
        {
            recorded.withLock { $0.answers.append(answer) }
        }
        return response
    }
}

/// `--explain`: decided and checked, nothing runs (the judge runs the plan in its scratch copy).
struct NothingRuns: PlanRunning {
    func run(_ run: PendingRun, progress: @escaping @Sendable (Int, Int) async -> Void) async -> RunOutcome {
        .failed("the bench runs nothing")
    }
}

/// The matcher's top three per clause of a request, as text.
enum CompoundSplitterProbe {
    static func clauses(_ request: String, matcher: Matcher, clock: Matcher.ReferenceTime) -> [String] {
        PromptBuilder.clauses(of: request).map { clause in
            let top = matcher.rank(clause, clock: clock).prefix(3).map { "\($0.target) \(String(format: "%.2f", $0.confidence))" }
            return "'\(clause)': \(top.joined(separator: ", "))"
        }
    }
}
