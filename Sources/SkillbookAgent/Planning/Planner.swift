import Foundation
import SkillbookCore

/// Asks a model for a plan and keeps only one that passes the checker and the lint.
///
/// The first answer is asked at temperature 0. When it fails (unreadable, unknown skill, wrong
/// types, lint, or the server's HTTP 500 when it cannot make the model's output fit the schema),
/// `budget.samples` candidates are sampled at a higher temperature — repeating the same prompt at
/// 0 mostly returns the same answer — and the first that passes is taken. Then, when no answer
/// could even be read, one more at 0 with a simpler schema (`PlanSchema.simple`: free steps, the
/// skill an enum of the offered ids); when some answer was read and failed the checks, one repair
/// with its diagnostics. Every call is counted against `budget`, and none is started that the
/// time left cannot hold (less than the quickest call so far took). Nothing is run here: a
/// refused plan simply never leaves, and its diagnostics say what was tried.
public struct Planner: Sendable {
    public let client: any ChatCompletions
    public let checker: PlanChecker
    public let prompt: PromptBuilder
    public let budget: PlanningBudget

    public init(client: any ChatCompletions, checker: PlanChecker, prompt: PromptBuilder, budget: PlanningBudget = PlanningBudget()) {
        self.client = client
        self.checker = checker
        self.prompt = prompt
        self.budget = budget
    }

    public enum Outcome: Sendable {
        /// A plan that passed the checker and the lint.
        case plan(PlanChecker.Checked)
        /// The model asks the person something.
        case question(String)
        /// Every plan the model gave failed, or none could be read: why, the last plan's problems
        /// and what was tried (`PlanAttempt.summary`).
        case refused(String, diagnostics: [String])
        /// The model could not be asked (HTTP error, timeout, budget).
        case failed(String)
    }

    public struct Report: Sendable {
        public var outcome: Outcome
        public var calls: Int
        public var tokens: Int
        /// Each call, in order.
        public var attempts: [PlanAttempt] = []
    }

    /// What a refusal adds for the person: how to get the work done anyway.
    public static let refusalHint =
        "to do it anyway, say the steps one by one with their values (\"read /tmp/a.txt, then save it as a note titled A\"), "
        + "or write them as a playbook (skillbook new)"

    /// `minSteps`: the plan's least number of steps (`PromptBuilder.minimumSteps`: one per clause the
    /// matcher takes); `covering`: clauses and the target each must be planned with
    /// (`PromptBuilder.sureTargets`) — a plan without one of them fails like a checker error, so a
    /// model cannot drop "… and save it as a note". `skeleton`: the plan's shape as the matcher
    /// reads it (`PlanSkeleton.make`); when some sequence of it can be written
    /// (`PlanSchema.shape`), the answer schema follows it, the prompt lists only its targets and
    /// states the order, and `offers` and `minSteps` are not used. A skeleton in doubt
    /// (`PlanSkeleton.doubts`) is not followed: the model first proposes the order of the steps from
    /// `offers` (`PromptBuilder.sequenceQuestion`), and the plan is asked along that.
    public func plan(
        _ request: String, offers given: [PlanOffer], name: String = "plan", minSteps: Int = 1,
        covering: [(clause: String, target: String)] = [], skeleton: PlanSkeleton? = nil
    ) async -> Report {
        var run = PlanningRun(planner: self, request: request, name: name, covering: covering)
        let maxSteps = Self.maxSteps(for: request, cap: budget.maxSteps)
        var followed = skeleton
        if let doubted = skeleton, !doubted.doubts.isEmpty {
            followed = await run.proposeSequence(offers: Self.offers(given, adding: doubted), minSteps: minSteps, maxSteps: maxSteps)
            if let outcome = run.finalOutcome { return run.report(outcome) }
            // An order without a step the plan must have (a clause the matcher is sure of) cannot
            // pass: the plan is asked as if none had been proposed — along the matcher's reading,
            // doubts and all, when it can be written ("读一下 F，…" proposed as shell.run had cost
            // three plans refused for leaving out files.read).
            if let proposed = followed, !Self.covers(proposed, covering) { followed = doubted }
        }
        let question = prompt.question(request: request, offers: given, minSteps: minSteps, maxSteps: maxSteps, skeleton: followed)
        let offered = question.shape?.offers ?? given.map { $0.trimmed(for: request) }
        let asked = PlanningRun.Asked(
            messages: question.messages, format: question.responseFormat, kind: question.shape == nil ? .full : .skeleton,
            fixed: question.shape.map(FixedValues.init(shape:)) ?? FixedValues(offers: offered))
        return await run.plan(asked, simple: PlanSchema.responseFormat(schema: PlanSchema.simple(offered, minSteps: minSteps, maxSteps: maxSteps)))
    }

    /// Whether every target of `covering` has a slot in `skeleton`.
    static func covers(_ skeleton: PlanSkeleton, _ covering: [(clause: String, target: String)]) -> Bool {
        let named = Set(skeleton.slots.flatMap { $0.offers.map(\.name) })
        return covering.allSatisfy { named.contains($0.target) }
    }

    /// `given` and every target of `skeleton`'s slots not among them: the model proposing the order
    /// may choose what the matcher ranked first as well as what it offered.
    static func offers(_ given: [PlanOffer], adding skeleton: PlanSkeleton) -> [PlanOffer] {
        var names = Set(given.map(\.name))
        var all = given
        for offer in skeleton.slots.flatMap(\.offers) + skeleton.adapters where names.insert(offer.name).inserted {
            all.append(offer)
        }
        return all
    }

    /// A plan for `request` with what the matcher reads off it: the offers chosen from `all`
    /// (`PromptBuilder.choose`, at most `limit`), the least number of steps, the clauses a plan
    /// must cover, and the skeleton (`PlanSkeleton.make`) the answer follows when there is one.
    public func plan(
        _ request: String, choosingFrom all: [PlanOffer], matcher: Matcher, clock: Matcher.ReferenceTime,
        limit: Int = PromptBuilder.defaultOffers, name: String = "plan"
    ) async -> Report {
        let skeleton = PlanSkeleton.make(for: request, offers: all, matcher: matcher, clock: clock)
        // A clause in doubt ("find the logs …" whose best match deletes) binds no step to its best match.
        let doubted = skeleton?.doubts.map(\.clause) ?? []
        // Nor does a clause the skeleton reads otherwise ("delete them" after notes.list: notes.delete,
        // not the files.delete its words alone match).
        let read = skeleton?.slots ?? []
        let covering = PromptBuilder.sureTargets(for: request, matcher: matcher, clock: clock).filter { sure in
            !doubted.contains { $0.contains(sure.clause) || sure.clause.contains($0) }
                && !read.contains { $0.clause == sure.clause && !$0.names.contains(sure.target) }
        }
        return await plan(
            request,
            offers: PromptBuilder.choose(all, for: request, matcher: matcher, clock: clock, limit: limit),
            name: name,
            minSteps: PromptBuilder.minimumSteps(for: request, matcher: matcher, clock: clock),
            covering: covering,
            skeleton: skeleton)
    }

    /// A plan has at most one step more than the request has clauses ("… and …", "…然后…"): room
    /// for one step that passes data between two, none for a run of invented steps.
    /// A clause holding more actions ("find the logs, move them to /tmp/old") counts each.
    public static func maxSteps(for request: String, cap: Int) -> Int {
        let actions = CompoundSplitter.clauses(of: request).reduce(0) { $0 + PlanSkeleton.actionParts(of: $1).count }
        return max(1, min(cap, actions + 1))
    }

    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value))s" : "\(value)s"
    }
}

extension Duration {
    var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
