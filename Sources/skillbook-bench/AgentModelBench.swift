import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Synchronization
import SkillbookSystem

/// `agent_model_*`: the real planner against a real model server (`make model`, then
/// `make eval-agent`), over the plan-shaped requests of
/// `Tests/SkillbookAgentTests/Fixtures/plan_requests.json`, each judged against its reference plan
/// (`PlanJudge`). Needs `SKILLBOOK_MODEL_URL`; without it the group prints a note and no figures.
/// `SKILLBOOK_EVAL_OFFERS` (default 20; `make eval-agent` sets 10) caps the skills and playbooks offered per request.
///
/// Figures: plans passing the checker and the lint (%), plans correct against the reference (%),
/// unknown skills named in any answer (count), declines correct (%), planning latency p50/p95 (s).
/// `SKILLBOOK_EVAL_SECONDS` (300) and `SKILLBOOK_EVAL_SAMPLES` (2) set the planning budget per request.
/// Each request's outcome is printed to stderr as it finishes.
struct AgentModelBench: Sendable {
    let state: URL
    let clock = Matcher.ReferenceTime(now: Date(timeIntervalSince1970: 1_796_112_900), timeZone: TimeZone(identifier: "Europe/Berlin")!)

    func run(environment: [String: String]) async throws -> [Figure] {
        if environment["SKILLBOOK_EVAL_DRY"] != nil { return try dryRun(environment: environment) }
        guard let url = environment["SKILLBOOK_MODEL_URL"].flatMap(URL.init(string:)) else {
            FileHandle.standardError.write(Data("agent_model: SKILLBOOK_MODEL_URL is not set (make model prints it); skipped\n".utf8))
            return []
        }
        let path = "Tests/SkillbookAgentTests/Fixtures/plan_requests.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchError("cannot read \(path): run from the package root") }
        let all = (try JSONText.decode(text).arrayValue ?? []).compactMap(ReferencePlan.init)
        // SKILLBOOK_EVAL_ONLY=1,5: only those requests (1-based), for tuning.
        let only = Set((environment["SKILLBOOK_EVAL_ONLY"] ?? "").split(separator: ",").compactMap { Int($0) })
        let references = only.isEmpty ? all : all.enumerated().filter { only.contains($0.offset + 1) }.map(\.element)
        let (registry, playbooks, library) = try workspace()
        let targets = playbooks.map(RouteTarget.init(playbook:)) + registry.descriptors.map(RouteTarget.init(skill:))
        let offers = playbooks.map(PlanOffer.init(playbook:)) + registry.descriptors.map(PlanOffer.init(skill:))
        let matcher = Matcher(targets: targets)
        let inputs = Dictionary(uniqueKeysWithValues: playbooks.map { playbook in
            (playbook.name, Schema(type: .object, properties: playbook.inputs.map { ($0.name, $0.schema) }, required: playbook.inputs.filter(\.isRequired).map(\.name)))
        })
        let checker = PlanChecker(
            registry: registry, library: library, coercion: Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone)),
            playbookInputs: inputs)
        let limit = environment["SKILLBOOK_EVAL_OFFERS"].flatMap(Int.init) ?? PromptBuilder.defaultOffers
        let known = Set(registry.descriptors.map(\.id) + playbooks.map(\.name))

        var passed = 0
        var correct = 0
        var unknown = 0
        var declines = 0
        var declinesRight = 0
        var plans = 0
        var times: [Double] = []
        for (i, reference) in references.enumerated() {
            let client = RecordingClient(
                base: OpenAIChatClient(
                    http: SystemHTTPClient(), baseURL: url, model: environment["SKILLBOOK_MODEL"], apiKey: environment["SKILLBOOK_API_KEY"]))
            let planner = Planner(
                client: client, checker: checker, prompt: PromptBuilder(now: clock.now, timeZone: clock.timeZone),
                budget: PlanningBudget(
                    maxSeconds: Double(environment["SKILLBOOK_EVAL_SECONDS"] ?? "") ?? 300,
                    samples: Int(environment["SKILLBOOK_EVAL_SAMPLES"] ?? "") ?? 2))
            // As `ask` does: a request no part of which anything here covers is declined unasked
            // (not counted in the latency, which is the model's).
            guard matcher.decide(reference.request, clock: clock).coversSomePart else {
                let verdict = PlanJudge.judge(nil, against: reference)
                if reference.decline { declines += 1
                    if verdict.correct { declinesRight += 1 } } else { plans += 1 }
                let line = "[\(i + 1)/\(references.count)] \(verdict.correct ? "ok " : "BAD") declined without the model: \(reference.request)\n"
                FileHandle.standardError.write(Data(line.utf8))
                continue
            }
            let start = Date()
            let report = await planner.plan(
                reference.request, choosingFrom: offers, matcher: matcher, clock: clock, limit: limit)
            let seconds = Date().timeIntervalSince(start)
            times.append(seconds)
            for answer in client.answers {
                if case .plan(let plan) = answer { unknown += plan.steps.filter { !known.contains($0.target) }.count }
            }
            let answer: ModelAnswer?
            switch report.outcome {
            case .plan(let checked): answer = .plan(checked.plan)
            case .question(let question): answer = .question(question)
            case .refused, .failed: answer = nil
            }
            let verdict = PlanJudge.judge(answer, against: reference)
            if reference.decline {
                declines += 1
                if verdict.correct { declinesRight += 1 }
            } else {
                plans += 1
                if case .plan = report.outcome { passed += 1 }
                if verdict.correct { correct += 1 }
            }
            let shown: String
            switch report.outcome {
            case .plan(let checked): shown = JSONText.encode(.array(checked.plan.json))
            case .question(let question): shown = "question: \(question)"
            case .refused(let why, let diagnostics): shown = "refused: \(why) \(diagnostics)"
            case .failed(let why): shown = "failed: \(why)"
            }
            let line = "[\(i + 1)/\(references.count)] \(verdict.correct ? "ok " : "BAD") \(String(format: "%.1f", seconds))s calls=\(report.calls) tokens=\(report.tokens) \(reference.request)\n    \(shown)\(verdict.correct ? "" : "\n    why: \(verdict.reason)")\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        times.sort()
        func percentile(_ p: Double) -> Double { times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * p))] }
        func share(_ n: Int, _ of: Int) -> Double { of == 0 ? 0 : 100 * Double(n) / Double(of) }
        return [
            Figure(name: "agent_model_plans_pass_check_lint", value: share(passed, plans), unit: "% of \(plans)"),
            Figure(name: "agent_model_plans_correct", value: share(correct, plans), unit: "% of \(plans)"),
            Figure(name: "agent_model_unknown_skills", value: Double(unknown), unit: "steps"),
            Figure(name: "agent_model_declines_correct", value: share(declinesRight, declines), unit: "% of \(declines)"),
            Figure(name: "agent_model_latency_p50", value: percentile(0.5), unit: "s"),
            Figure(name: "agent_model_latency_p95", value: percentile(0.95), unit: "s"),
        ]
    }

    /// `SKILLBOOK_EVAL_DRY=1`: no model; each request's offers (with the matcher's confidence per
    /// clause), its prompt and the size of prompt and schema, for tuning the prompt.
    func dryRun(environment: [String: String]) throws -> [Figure] {
        let path = "Tests/SkillbookAgentTests/Fixtures/plan_requests.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchError("cannot read \(path): run from the package root") }
        let all = (try JSONText.decode(text).arrayValue ?? []).compactMap(ReferencePlan.init)
        let only = Set((environment["SKILLBOOK_EVAL_ONLY"] ?? "").split(separator: ",").compactMap { Int($0) })
        let references = only.isEmpty ? all : all.enumerated().filter { only.contains($0.offset + 1) }.map(\.element)
        let (registry, playbooks, _) = try workspace()
        let targets = playbooks.map(RouteTarget.init(playbook:)) + registry.descriptors.map(RouteTarget.init(skill:))
        let offers = playbooks.map(PlanOffer.init(playbook:)) + registry.descriptors.map(PlanOffer.init(skill:))
        let matcher = Matcher(targets: targets)
        let limit = environment["SKILLBOOK_EVAL_OFFERS"].flatMap(Int.init) ?? PromptBuilder.defaultOffers
        let prompt = PromptBuilder(now: clock.now, timeZone: clock.timeZone)
        var out = ""
        for (i, reference) in references.enumerated() {
            let chosen = PromptBuilder.choose(offers, for: reference.request, matcher: matcher, clock: clock, limit: limit)
            // What the planner asks with (`Planner.plan(_:choosingFrom:…)`), without a model.
            let question = prompt.question(
                request: reference.request, offers: chosen,
                minSteps: PromptBuilder.minimumSteps(for: reference.request, matcher: matcher, clock: clock),
                maxSteps: Planner.maxSteps(for: reference.request, cap: PlanningBudget().maxSteps),
                skeleton: PlanSkeleton.make(for: reference.request, offers: offers, matcher: matcher, clock: clock))
            let messages = question.messages
            let schema = JSONText.encode(question.responseFormat)
            if let shape = question.shape {
                let sequences = shape.sequences.map { $0.map { $0.names.joined(separator: "|") }.joined(separator: " → ") }
                out += "  skeleton: " + sequences.joined(separator: "  /  ") + "\n"
            }
            let missing = reference.steps.map(\.skill).filter { skill in !chosen.contains { $0.name == skill } }
            out += "[\(i + 1)] \(reference.request)\n  offers: \(chosen.map(\.name).joined(separator: ", "))"
            out += missing.isEmpty ? "\n" : "\n  MISSING: \(missing.joined(separator: ", "))\n"
            for clause in CompoundSplitterProbe.clauses(reference.request, matcher: matcher, clock: clock) { out += "  clause \(clause)\n" }
            out += "  sure: \(PromptBuilder.sureTargets(for: reference.request, matcher: matcher, clock: clock).map(\.target))\n"
            out += "  steps at least \(PromptBuilder.minimumSteps(for: reference.request, matcher: matcher, clock: clock))\n"
            out += "  prompt \(messages.map(\.content.count).reduce(0, +)) chars (user \(messages.last?.content.count ?? 0)), schema \(schema.count) chars\n"
            if environment["SKILLBOOK_EVAL_DRY"] == "prompt" { out += messages.map { "  --- \($0.role.rawValue)\n\($0.content)\n" }.joined() }
        }
        FileHandle.standardError.write(Data(out.utf8))
        return []
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

/// Passes requests to a chat client and keeps every answer it could read.
final class RecordingClient: ChatCompletions {
    let base: any ChatCompletions
    private let recorded = Mutex<[ModelAnswer]>([])

    init(base: any ChatCompletions) {
        self.base = base
    }

    var answers: [ModelAnswer] { recorded.withLock { $0 } }

    func complete(_ request: ChatRequest) async throws -> ChatResponse {
        let response = try await base.complete(request)
        if let answer = try? PlanParser.parse(response) { recorded.withLock { $0.append(answer) } }
        return response
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
