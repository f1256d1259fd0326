import Foundation
import SkillbookCore

/// The calls of one planning (`Planner.plan`), in the order they are made: the first answer at
/// temperature 0, samples, the simpler schema when nothing could be read, a repair when a plan
/// was read and failed; each within the budget, each recorded as a `PlanAttempt`.
struct PlanningRun {
    /// A question as sent: its messages, its response format, which schema that is, and the
    /// values the answer leaves out for the planner to fill in.
    struct Asked {
        var messages: [ChatMessage]
        var format: Value
        var kind: PlanAttempt.SchemaKind
        var fixed = FixedValues()
    }

    /// What one call came to.
    enum Step {
        /// A plan that passed, a question, or a stop (budget, transport, timeout).
        case done(Planner.Outcome)
        /// A plan that was read and failed the checks: the answer and its problems.
        case failedCheck(answer: String, problems: [String])
        /// No plan to read: the server's error or the parser's words.
        case unusable(String, serverError: Bool)
    }

    /// A call's answer, or why there is none.
    enum Answer {
        case response(ChatResponse, text: String)
        case unusable(String, serverError: Bool)
        case stopped(String)
    }

    let planner: Planner
    let request: String
    let name: String
    let covering: [(clause: String, target: String)]
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    var calls = 0
    var tokens = 0
    var attempts: [PlanAttempt] = []
    /// Set when proposing the order ended the planning (a question, a stop).
    var finalOutcome: Planner.Outcome?

    init(planner: Planner, request: String, name: String, covering: [(clause: String, target: String)]) {
        self.planner = planner
        self.request = request
        self.name = name
        self.covering = covering
        self.start = clock.now
    }

    var budget: PlanningBudget { planner.budget }

    func report(_ outcome: Planner.Outcome) -> Planner.Report {
        Planner.Report(outcome: outcome, calls: calls, tokens: tokens, attempts: attempts)
    }

    /// Sends one call, or says why none may be: a budget spent, or less time left than the
    /// quickest call so far took (a call that cannot finish only costs the rest of the budget).
    mutating func send(_ asked: Asked, temperature: Double) async -> Answer {
        guard calls < budget.maxCalls else {
            return .stopped("planning stopped: the budget of \(budget.maxCalls) model call\(budget.maxCalls == 1 ? "" : "s") is spent")
        }
        guard tokens < budget.maxTokens else {
            return .stopped("planning stopped: the budget of \(budget.maxTokens) tokens is spent (\(tokens) used)")
        }
        let left = budget.maxSeconds - (clock.now - start).secondsValue
        guard left > 0 else {
            return .stopped("planning stopped: the budget of \(Planner.seconds(budget.maxSeconds)) is spent")
        }
        if let quickest = attempts.map(\.seconds).min(), left < quickest {
            return .stopped(
                "planning stopped: \(Self.tenths(left)) s of the budget of \(Planner.seconds(budget.maxSeconds)) are left, "
                    + "less than the quickest model call took (\(Self.tenths(quickest)) s)")
        }
        calls += 1
        let response: ChatResponse
        do {
            response = try await planner.client.complete(
                ChatRequest(
                    messages: asked.messages, temperature: temperature, maxTokens: budget.maxAnswerTokens, responseFormat: asked.format,
                    timeout: left))
        } catch let error as ChatError where error.kind == .timedOut {
            return .stopped("the model did not answer within the planning budget of \(Planner.seconds(budget.maxSeconds))")
        } catch let error as ChatError where error.kind == .http(500) || error.kind == .malformed {
            // llama.cpp answers 500 when it cannot fit the model's output to the schema ("the model
            // produced output that does not match the expected … format"): another try may not.
            return .unusable(error.message, serverError: true)
        } catch let error as ChatError {
            return .stopped("the model could not be asked: \(error.message)")
        } catch is CancellationError {
            return .stopped("planning was cancelled")
        } catch {
            return .stopped("the model could not be asked: \(error)")
        }
        let text = response.content ?? response.toolCalls.map { "\($0.name)(\($0.arguments))" }.joined(separator: "\n")
        tokens += response.totalTokens ?? (asked.messages.reduce(0) { $0 + $1.content.count } + text.count) / 4
        return .response(response, text: text)
    }

    /// One call for a plan, its answer read and checked, recorded as an attempt.
    mutating func ask(_ asked: Asked, temperature: Double, repair: Bool = false) async -> Step {
        let began = clock.now
        let answer = await send(asked, temperature: temperature)
        func record(_ result: PlanAttempt.Result) {
            attempts.append(
                PlanAttempt(schema: asked.kind, temperature: temperature, repair: repair, result: result, seconds: (clock.now - began).secondsValue))
        }
        switch answer {
        case .stopped(let why):
            return .done(.failed(why))
        case .unusable(let why, _):
            record(.serverError(Self.short(why)))
            return .unusable(why, serverError: true)
        case .response(let response, let text):
            var parsed: ModelAnswer
            do {
                parsed = try PlanParser.parse(response)
            } catch {
                record(.unreadable(error.message))
                return .unusable(error.message, serverError: false)
            }
            if case .plan(let plan) = parsed { parsed = .plan(asked.fixed.filled(plan)) }
            let step = check(parsed, answer: text)
            switch step {
            case .done(.plan): record(.plan)
            case .done(.question): record(.question)
            default: record(.failedCheck)
            }
            return step
        }
    }

    /// A read answer: a question, a plan that passes, or its problems.
    func check(_ answer: ModelAnswer, answer text: String) -> Step {
        switch answer {
        case .question(let question):
            return .done(.question(question))
        case .plan(let plan):
            var checked = planner.checker.check(plan, name: name, description: request)
            // What the lint names as the only fix is made here, not asked of the model again.
            if !checked.passes, let fixed = planner.checker.fixed(checked.plan, description: request) {
                let again = planner.checker.check(fixed, name: name, description: request)
                if again.passes { checked = again }
            }
            let targets = Set(checked.plan.steps.map(\.target))
            let uncovered = covering.filter { !targets.contains($0.target) }.map { clause, target in
                "the request's '\(clause)' is for \(target), which no step uses; add a step with \"skill\": \"\(target)\""
            }
            if checked.passes && uncovered.isEmpty { return .done(.plan(checked)) }
            if checked.passes { return .failedCheck(answer: text, problems: uncovered) }
            let errors = checked.diagnostics.filter { $0.severity == .error }
            return .failedCheck(answer: text, problems: errors.map { ($0.path.map { "\($0): " } ?? "") + $0.message })
        }
    }

    /// Asks for a plan with `asked`, sampling, simplifying (`simple`) and repairing as the type
    /// says, and ends with the first plan that passes or a refusal that says what was tried.
    mutating func plan(_ asked: Asked, simple: Value) async -> Planner.Report {
        var readable: (asked: Asked, answer: String, problems: [String])?
        var unusable: [(why: String, serverError: Bool)] = []
        var stopped: String?
        var repaired = false
        func note(_ step: Step, _ asked: Asked) {
            switch step {
            case .failedCheck(let answer, let problems): readable = (asked, answer, problems)
            case .unusable(let why, let serverError): unusable.append((why, serverError))
            case .done: break
            }
        }
        let first = await ask(asked, temperature: 0)
        if case .done(let outcome) = first { return report(outcome) }
        note(first, asked)
        for _ in 0..<budget.samples {
            let sample = await ask(asked, temperature: budget.sampleTemperature)
            if case .done(.failed(let why)) = sample {
                stopped = why
                break
            }
            if case .done(let outcome) = sample { return report(outcome) }
            note(sample, asked)
        }
        // Nothing could be read: the same question with a schema the server can hardly fail to follow.
        if readable == nil, stopped == nil {
            let simpler = Asked(messages: asked.messages, format: simple, kind: .simple, fixed: asked.fixed)
            let step = await ask(simpler, temperature: 0)
            if case .done(.failed(let why)) = step {
                stopped = why
            } else if case .done(let outcome) = step {
                return report(outcome)
            }
            note(step, simpler)
        }
        if let failed = readable, stopped == nil {
            let repair = Asked(
                messages: failed.asked.messages + [
                    ChatMessage(.assistant, failed.answer),
                    ChatMessage(
                        .user,
                        "That plan has these problems:\n" + failed.problems.map { "- \($0)" }.joined(separator: "\n")
                            + "\nAnswer with the corrected plan, as JSON only."),
                ], format: failed.asked.format, kind: failed.asked.kind, fixed: failed.asked.fixed)
            let step = await ask(repair, temperature: 0, repair: true)
            repaired = true
            if case .done(.failed(let why)) = step {
                stopped = why
            } else if case .done(let outcome) = step {
                return report(outcome)
            }
            note(step, repair)
        }
        return report(refusal(readable: readable, unusable: unusable, stopped: stopped, repaired: repaired))
    }

    /// Why the planning ends without a plan, with what the person can act on.
    func refusal(
        readable: (asked: Asked, answer: String, problems: [String])?, unusable: [(why: String, serverError: Bool)], stopped: String?,
        repaired: Bool
    ) -> Planner.Outcome {
        let tried = triedLine
        if let readable {
            let reason = "the model's plan did not pass the checker" + (stopped.map { "; \($0)" } ?? (repaired ? " after a repair" : ""))
            return .refused(reason, diagnostics: readable.problems + [tried, Planner.refusalHint])
        }
        if !unusable.isEmpty, unusable.allSatisfy(\.serverError) {
            let last = unusable[unusable.count - 1].why
            return .failed("the model could not be asked: \(last)" + (stopped.map { "; \($0)" } ?? "") + "; \(tried)")
        }
        let last = unusable.last(where: { !$0.serverError })?.why ?? unusable.last?.why ?? "no answer"
        let reason = "the model's answers could not be read as a plan" + (stopped.map { "; \($0)" } ?? "")
        return .refused(reason, diagnostics: [last, tried, Planner.refusalHint])
    }

    /// `tried 3 model calls in 24.1 s: temperature 0, full schema: HTTP 500 …; …`.
    var triedLine: String {
        let seconds = (clock.now - start).secondsValue
        return "tried \(calls) model call\(calls == 1 ? "" : "s") in \(Self.tenths(seconds)) s: "
            + attempts.map(\.summary).joined(separator: "; ")
    }

    /// A server's error without the address it came from: `HTTP 500: the model produced …`.
    static func short(_ message: String) -> String {
        if let range = message.range(of: " answered ") { return String(message[range.upperBound...].prefix(160)) }
        return String(message.prefix(160))
    }

    static func tenths(_ seconds: Double) -> String {
        String(format: "%.1f", max(0, seconds))
    }

    /// Asks the model for the order of the steps only (`PromptBuilder.sequenceQuestion`) and
    /// returns the skeleton it gives (`PlanSkeleton.proposed`); `nil` when the answer does not
    /// give one (then the plan is asked over the offers freely). A question or a stop ends the
    /// planning (`finalOutcome`).
    mutating func proposeSequence(offers: [PlanOffer], minSteps: Int, maxSteps: Int) async -> PlanSkeleton? {
        let question = planner.prompt.sequenceQuestion(request: request, offers: offers, minSteps: minSteps, maxSteps: maxSteps)
        let asked = Asked(messages: question.messages, format: question.responseFormat, kind: .sequence)
        let began = clock.now
        let answer = await send(asked, temperature: 0)
        func record(_ result: PlanAttempt.Result) {
            attempts.append(PlanAttempt(schema: .sequence, temperature: 0, result: result, seconds: (clock.now - began).secondsValue))
        }
        switch answer {
        case .stopped(let why):
            finalOutcome = .failed(why)
            return nil
        case .unusable(let why, _):
            record(.serverError(Self.short(why)))
            return nil
        case .response(_, let text):
            guard let value = PlanParser.extractJSON(text) else {
                record(.unreadable("the model's answer holds no JSON object: \(PlanParser.snippet(text))"))
                return nil
            }
            if let asks = value["question"]?.stringValue, !asks.isEmpty {
                record(.question)
                finalOutcome = .question(asks)
                return nil
            }
            let names = (value["steps"]?.arrayValue ?? []).compactMap { $0.stringValue ?? $0["skill"]?.stringValue ?? $0["playbook"]?.stringValue }
            let skeleton = PlanSkeleton.proposed(names, offers: offers)
            record(skeleton == nil ? .unreadable("the proposed steps \(names) are not among the offers") : .sequence(names))
            return skeleton
        }
    }
}
