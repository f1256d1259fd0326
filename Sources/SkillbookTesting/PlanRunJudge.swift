public import Foundation
public import SkillbookAgent
import SkillbookCore
import SkillbookRuntime
import Synchronization

/// Judges a model's plan by running it: `PlanJudge` first (skills in order, values, literal vs
/// reference, dates), then the real checker, then the plan and its reference each through the
/// real engine in a fresh `PlanScene` copy (actions approved, web addresses on 127.0.0.1). The plan
/// is wrong when its run fails, when a `text.extract` finds nothing where the reference's finds
/// something (a regex that matches nothing in the fixture), or when the copy ends up different:
/// other files or file contents, another number of notes, reminders due at other times.
///
/// A plan that calls a playbook, `shell.run` or `mail.send` is judged without running (`ran` false).
public struct PlanRunJudge: Sendable {
    /// The folder of the shipped manifest skills (`Skills/`).
    public let skills: URL
    public let clock: Matcher.ReferenceTime
    public let pages: PlanScene.Pages
    private let template = Template()
    /// Each plan's outcome by its JSON text: a plan runs once (the same plan in the same world
    /// ends the same way), so a reference judged against many answers, or an answer equal to its
    /// reference, is not run again.
    private let outcomes = Outcomes()

    /// Skills never run here: what they touch is outside the copy.
    public static let notRun: Set<String> = ["shell.run", "mail.send"]

    public init(skills: URL, clock: Matcher.ReferenceTime) throws {
        self.skills = skills
        self.clock = clock
        pages = try PlanScene.Pages()
    }

    public struct Verdict: Sendable, Equatable {
        public var verdict: PlanJudge.Verdict
        /// Whether the plan was run (a plan judged wrong before running, or calling what is never run, was not).
        public var ran: Bool

        public init(verdict: PlanJudge.Verdict, ran: Bool) {
            self.verdict = verdict
            self.ran = ran
        }

        public var correct: Bool { verdict.correct }
        public var reason: String { verdict.reason }
    }

    public func judge(_ answer: ModelAnswer?, against reference: ReferencePlan) async -> Verdict {
        let verdict = PlanJudge.judge(answer, against: reference)
        guard verdict.correct, !reference.decline, case .plan(let plan) = answer else { return Verdict(verdict: verdict, ran: false) }
        guard plan.steps.allSatisfy({ !$0.isPlaybook && !Self.notRun.contains($0.target) }) else {
            return Verdict(verdict: verdict, ran: false)
        }
        do {
            let expected = try await run(filled(reference.plan))
            if let failure = expected.failure {
                return Verdict(verdict: .wrong("the reference does not run: \(failure.text("the reference"))"), ran: true)
            }
            let actual = try await run(plan)
            if let failure = actual.failure { return Verdict(verdict: .wrong(failure.text("the plan")), ran: true) }
            for (i, step) in plan.steps.enumerated() where step.target == "text.extract" {
                let found = actual.outputs[i]?["count"]?.intValue ?? 0
                let wanted = expected.outputs[i]?["count"]?.intValue ?? 0
                if wanted == 0 { return Verdict(verdict: .wrong("the reference's step \(i + 1) finds nothing in the fixture"), ran: true) }
                if found == 0 {
                    let regex = step.with["regex"].map { JSONText.encode($0) } ?? "its regex"
                    return Verdict(verdict: .wrong("step \(i + 1): \(regex) finds nothing in the fixture (the reference finds \(wanted))"), ran: true)
                }
            }
            if let difference = Self.difference(actual.world, expected.world) { return Verdict(verdict: .wrong(difference), ran: true) }
            return Verdict(verdict: .right, ran: true)
        } catch {
            return Verdict(verdict: .wrong("could not set up the scene: \(error)"), ran: false)
        }
    }

    /// How one run went: why it failed (nil when it succeeded), each step's output in order, and
    /// the copy afterwards.
    struct Outcome: Sendable {
        var failure: Failure?
        var outputs: [Value?]
        var world: PlanScene.World
    }

    /// Why a run failed: the checker's errors, or the run's status and error.
    enum Failure: Sendable {
        case check(String)
        case run(String)

        /// As a reason, about `what` ("the plan").
        func text(_ what: String) -> String {
            switch self {
            case .check(let errors): "\(what) does not check: \(errors)"
            case .run(let why): "\(what)'s run \(why)"
            }
        }
    }

    /// Runs `plan` in a fresh copy: rewritten into it, checked by the real checker, run by the engine.
    func run(_ plan: Plan) async throws -> Outcome {
        let key = JSONText.encode(.array(plan.json))
        if let known = outcomes.get(key) { return known }
        let outcome = try await runAfresh(plan)
        outcomes.set(key, outcome)
        return outcome
    }

    func runAfresh(_ plan: Plan) async throws -> Outcome {
        let scene = try PlanScene.copy(of: try await template.folder(), skills: skills)
        defer { scene.remove() }
        let checker = PlanChecker(registry: scene.registry, coercion: Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone)))
        let checked = checker.check(scene.rewrite(plan, pages: pages))
        let hidden = { (text: String) in text.replacingOccurrences(of: scene.root.path, with: "") }
        guard checked.passes, let playbook = checked.playbook else {
            let errors = checked.diagnostics.filter { $0.severity == .error }.map { hidden($0.message) }
            return Outcome(failure: .check(errors.joined(separator: "; ")), outputs: [], world: try await scene.world())
        }
        let engine = Engine(registry: scene.registry, environment: .test(), confirmer: ApprovingConfirmer(), resources: ResourceLocks())
        let result = await engine.run(playbook, inputs: [:])
        let outputs = plan.steps.map { result.step($0.id)?.output }
        var failure: Failure?
        if result.status != .succeeded {
            let step = result.steps.first { $0.error != nil }
            failure = .run(result.status.rawValue + (step.map { " at step \($0.id): \(hidden($0.error ?? ""))" } ?? ": \(hidden(result.error ?? ""))"))
        }
        return Outcome(failure: failure, outputs: outputs, world: try await scene.world())
    }

    /// The reference with its open required parameters filled (a title `x`), so that it runs.
    public func filled(_ plan: Plan) -> Plan {
        var plan = plan
        for i in plan.steps.indices {
            for name in Self.required[plan.steps[i].target] ?? [] where plan.steps[i].with[name] == nil {
                plan.steps[i].with[name] = "x"
            }
        }
        return plan
    }

    /// Required text parameters a reference may leave open.
    static let required: [String: [String]] = [
        "notes.create": ["title"], "reminders.create": ["title"], "notify.send": ["message"],
    ]

    /// Where two copies differ after the runs, as one line; nil when they do not.
    static func difference(_ actual: PlanScene.World, _ expected: PlanScene.World) -> String? {
        let paths = Set(actual.files.keys).union(expected.files.keys).sorted()
        for path in paths where actual.files[path] != expected.files[path] {
            switch (actual.files[path], expected.files[path]) {
            case (nil, _): return "/\(path) is missing afterwards"
            case (_, nil): return "/\(path) should not be there afterwards"
            case (let got?, let wanted?): return "/\(path) holds \(JSONText.encode(.string(String(got.prefix(80))))), expected \(JSONText.encode(.string(String(wanted.prefix(80)))))"
            }
        }
        if actual.notes.count != expected.notes.count { return "\(actual.notes.count) notes afterwards, expected \(expected.notes.count)" }
        if let (got, wanted) = firstDifference(actual.notes, expected.notes) { return "a note tagged \(got), expected one tagged \(wanted)" }
        if actual.reminders.count != expected.reminders.count {
            return "\(actual.reminders.count) reminders afterwards, expected \(expected.reminders.count)"
        }
        if let (got, wanted) = firstDifference(actual.reminders, expected.reminders) { return "a reminder \(got), expected \(wanted)" }
        return nil
    }

    /// Of two sorted lists of the same length, the first item of each that the other lacks.
    static func firstDifference(_ actual: [String], _ expected: [String]) -> (String, String)? {
        var extra = actual
        var missing: [String] = []
        for item in expected {
            if let index = extra.firstIndex(of: item) { extra.remove(at: index) } else { missing.append(item) }
        }
        guard let got = extra.first, let wanted = missing.first else { return nil }
        return (got, wanted)
    }
}

/// The judge's `PlanScene.template(at:)`, made on first use and removed with the judge.
private final class Template: Sendable {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-plan-template-\(UUID().uuidString)")
    private let made = Mutex<Task<Void, any Error>?>(nil)

    func folder() async throws -> URL {
        let base = base
        let task = made.withLock { made in
            if let made { return made }
            let task = Task { try await PlanScene.template(at: base) }
            made = task
            return task
        }
        try await task.value
        return base
    }

    deinit {
        try? FileManager.default.removeItem(at: base)
    }
}

/// `PlanRunJudge`'s outcomes by plan.
private final class Outcomes: Sendable {
    private let stored = Mutex<[String: PlanRunJudge.Outcome]>([:])

    func get(_ key: String) -> PlanRunJudge.Outcome? { stored.withLock { $0[key] } }
    func set(_ key: String, _ outcome: PlanRunJudge.Outcome) { stored.withLock { $0[key] = outcome } }
}
