import Foundation
import SkillbookCore

/// Asks a model for a plan and keeps only one that passes the checker and the lint.
///
/// The first answer is asked at temperature 0. When it fails (unreadable, unknown skill, wrong
/// types, lint), `budget.samples` candidates are sampled at a higher temperature — repeating the
/// same prompt at 0 mostly returns the same answer — and the first that passes is taken; then one
/// repair is asked with the diagnostics. Nothing is run here: a refused plan simply never leaves.
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
        /// Every plan the model gave failed; the last one's problems.
        case refused(String, diagnostics: [String])
        /// The model could not be asked (HTTP error, timeout, budget).
        case failed(String)
    }

    public struct Report: Sendable {
        public var outcome: Outcome
        public var calls: Int
        public var tokens: Int
    }

    /// `minSteps`: the plan's least number of steps (`PromptBuilder.minimumSteps`: one per clause the
    /// matcher takes); `covering`: clauses and the target each must be planned with
    /// (`PromptBuilder.sureTargets`) — a plan without one of them fails like a checker error, so a
    /// model cannot drop "… and save it as a note". `skeleton`: the plan's shape as the matcher
    /// reads it (`PlanSkeleton.make`); when some sequence of it can be written
    /// (`PlanSchema.shape`), the answer schema follows it, the prompt lists only its targets and
    /// states the order, and `offers` and `minSteps` are not used.
    public func plan(
        _ request: String, offers given: [PlanOffer], name: String = "plan", minSteps: Int = 1,
        covering: [(clause: String, target: String)] = [], skeleton: PlanSkeleton? = nil
    ) async -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        var calls = 0
        var tokens = 0
        let question = prompt.question(
            request: request, offers: given, minSteps: minSteps, maxSteps: Self.maxSteps(for: request, cap: budget.maxSteps),
            skeleton: skeleton)
        let (format, messages) = (question.responseFormat, question.messages)

        enum Step {
            case done(Outcome)
            case failedCheck(answer: String, problems: [String])
        }

        func ask(_ messages: [ChatMessage], temperature: Double) async -> Step {
            guard calls < budget.maxCalls else {
                return .done(.failed("planning stopped: the budget of \(budget.maxCalls) model call\(budget.maxCalls == 1 ? "" : "s") is spent"))
            }
            guard tokens < budget.maxTokens else {
                return .done(.failed("planning stopped: the budget of \(budget.maxTokens) tokens is spent (\(tokens) used)"))
            }
            let left = budget.maxSeconds - (clock.now - start).secondsValue
            guard left > 0 else {
                return .done(.failed("planning stopped: the budget of \(Self.seconds(budget.maxSeconds)) is spent"))
            }
            calls += 1
            let response: ChatResponse
            do {
                response = try await client.complete(
                    ChatRequest(
                        messages: messages, temperature: temperature, maxTokens: budget.maxAnswerTokens, responseFormat: format,
                        timeout: left))
            } catch let error as ChatError where error.kind == .timedOut {
                return .done(.failed("the model did not answer within the planning budget of \(Self.seconds(budget.maxSeconds))"))
            } catch let error as ChatError {
                return .done(.failed("the model could not be asked: \(error.message)"))
            } catch is CancellationError {
                return .done(.failed("planning was cancelled"))
            } catch {
                return .done(.failed("the model could not be asked: \(error)"))
            }
            let answerText = response.content ?? response.toolCalls.map { "\($0.name)(\($0.arguments))" }.joined(separator: "\n")
            tokens += response.totalTokens ?? (messages.reduce(0) { $0 + $1.content.count } + answerText.count) / 4
            let answer: ModelAnswer
            do {
                answer = try PlanParser.parse(response)
            } catch {
                return .failedCheck(answer: answerText, problems: [error.message])
            }
            switch answer {
            case .question(let question):
                return .done(.question(question))
            case .plan(let plan):
                let checked = checker.check(plan, name: name, description: request)
                let targets = Set(plan.steps.map(\.target))
                let uncovered = covering.filter { !targets.contains($0.target) }.map { clause, target in
                    "the request's '\(clause)' is for \(target), which no step uses; add a step with \"skill\": \"\(target)\""
                }
                if checked.passes && uncovered.isEmpty { return .done(.plan(checked)) }
                if checked.passes { return .failedCheck(answer: answerText, problems: uncovered) }
                let problems = checked.diagnostics.filter { $0.severity == .error }.map { $0.path.map { p in "\(p): " } ?? "" }
                let messages = checked.diagnostics.filter { $0.severity == .error }.map(\.message)
                return .failedCheck(answer: answerText, problems: zip(problems, messages).map { $0 + $1 })
            }
        }

        var last = await ask(messages, temperature: 0)
        for _ in 0..<budget.samples {
            guard case .failedCheck = last else { break }
            let sample = await ask(messages, temperature: budget.sampleTemperature)
            if case .done(.failed) = sample { break }
            last = sample
        }
        if case .failedCheck(let answer, let problems) = last {
            let repair =
                messages + [
                    ChatMessage(.assistant, answer),
                    ChatMessage(
                        .user,
                        "That plan has these problems:\n" + problems.map { "- \($0)" }.joined(separator: "\n")
                            + "\nAnswer with the corrected plan, as JSON only."),
                ]
            let repaired = await ask(repair, temperature: 0)
            if case .done(.failed(let why)) = repaired {
                return Report(
                    outcome: .refused("the model's plan did not pass the checker; \(why)", diagnostics: problems), calls: calls,
                    tokens: tokens)
            }
            last = repaired
        }
        switch last {
        case .done(let outcome):
            return Report(outcome: outcome, calls: calls, tokens: tokens)
        case .failedCheck(_, let problems):
            return Report(
                outcome: .refused("the model's plan did not pass the checker after a repair", diagnostics: problems), calls: calls,
                tokens: tokens)
        }
    }

    /// A plan for `request` with what the matcher reads off it: the offers chosen from `all`
    /// (`PromptBuilder.choose`, at most `limit`), the least number of steps, the clauses a plan
    /// must cover, and the skeleton (`PlanSkeleton.make`) the answer follows when there is one.
    public func plan(
        _ request: String, choosingFrom all: [PlanOffer], matcher: Matcher, clock: Matcher.ReferenceTime,
        limit: Int = PromptBuilder.defaultOffers, name: String = "plan"
    ) async -> Report {
        await plan(
            request,
            offers: PromptBuilder.choose(all, for: request, matcher: matcher, clock: clock, limit: limit),
            name: name,
            minSteps: PromptBuilder.minimumSteps(for: request, matcher: matcher, clock: clock),
            covering: PromptBuilder.sureTargets(for: request, matcher: matcher, clock: clock),
            skeleton: PlanSkeleton.make(for: request, offers: all, matcher: matcher, clock: clock))
    }

    /// A plan has at most one step more than the request has clauses ("… and …", "…然后…"): room
    /// for one step that passes data between two, none for a run of invented steps.
    public static func maxSteps(for request: String, cap: Int) -> Int {
        max(1, min(cap, CompoundSplitter.clauses(of: request).count + 1))
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
