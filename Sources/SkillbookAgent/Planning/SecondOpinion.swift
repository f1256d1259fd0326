import Foundation
public import SkillbookCore

/// The model as a second opinion where the matcher is unsure: a one-clause request whose best
/// candidate is under the acceptance threshold or in a near tie is put to the model with its top
/// candidates, and the model answers which one does it — constrained by the answer schema to
/// their ids, or "none" — with the parameters it reads off the request. The choice then goes
/// through the same input checks as a matcher's route (`AgentFlow`); "none", an answer that
/// cannot be read or a model that cannot be asked leave the matcher's decision as it was.
public struct SecondOpinion: Sendable {
    public let client: any ChatCompletions
    public let prompt: PromptBuilder
    public let budget: PlanningBudget

    /// At most this many candidates are put to the model.
    public static let candidates = 3
    /// A request whose best candidate scores under this is not put to the model: nothing here
    /// comes near it.
    public static let floor = 0.2
    /// Tokens of the answer: an id and a few values.
    public static let answerTokens = 150

    public init(client: any ChatCompletions, prompt: PromptBuilder, budget: PlanningBudget = PlanningBudget()) {
        self.client = client
        self.prompt = prompt
        self.budget = budget
    }

    public init(planner: Planner) {
        self.init(client: planner.client, prompt: planner.prompt, budget: planner.budget)
    }

    /// What the model answered.
    public enum Verdict: Sendable, Equatable {
        /// This candidate, with the parameters the model gave that fit their schemas.
        case chose(String, inputs: ValueObject)
        /// None of the candidates does what the request asks.
        case none
        /// No usable answer (the server failed, the answer could not be read): why.
        case failed(String)
    }

    /// Whether `decision` (for `request`) is one the matcher is unsure of: layer `none` with a near
    /// tie — with `underThreshold`, also a best candidate from `floor` up to the acceptance
    /// threshold — for a request of one clause (two clauses are the planner's: one skill must not
    /// swallow them). The flow asks about near ties only: measured on the routing set
    /// (`skillbook-bench agent_second_opinion`), Qwen2.5-Coder-1.5B cannot tell a request under the
    /// threshold that something here does from one nothing here does (most of them), and either
    /// answered none for all or picked a target for most.
    public static func applies(to decision: RouteDecision, request: String, underThreshold: Bool = false) -> Bool {
        guard decision.layer == .none, let best = decision.candidates.first, best.confidence >= floor else { return false }
        guard decision.question != nil || underThreshold else { return false }
        return CompoundSplitter.clauses(of: request).count < 2
    }

    /// The offers put to the model for `decision`: its candidates (at most `candidates`) that score
    /// above 0, in its order, as offers from `all`.
    public static func offers(for decision: RouteDecision, from all: [PlanOffer]) -> [PlanOffer] {
        let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        return decision.candidates.prefix(candidates).filter { $0.confidence > 0 }.compactMap { byName[$0.target] }
    }

    static let rules = """
        A request was matched by its words to the skills and playbooks listed, and the match is unsure. Say which one of them \
        does what the person asks, and fill its parameters from the request. Requests are often short, misspelt or worded \
        differently from the descriptions. Answer with JSON only, on one line: {"choice": ID, "with": {PARAMETER: VALUE, ...}}, \
        ID one of those listed; when the request asks for something none of them does, the choice is none. \
        Give only the parameters the request gives a value for (leave the others out); copy paths, addresses, names, titles and \
        other values from the request exactly.
        Dates: a date is YYYY-MM-DD, a date-time YYYY-MM-DDTHH:MM:SS+HH:MM; words like tomorrow 9am are also accepted.
        """

    /// The messages: the rules, then the date when a candidate takes one, the candidates (each its
    /// id first, then its parameters, `*` required, no outputs) and the request, masked like a plan's.
    public func messages(request: String, offers: [PlanOffer]) -> [ChatMessage] {
        var user = ""
        if offers.contains(where: \.takesDate) {
            user += "Now: \(DateParser.formatDateTime(prompt.now, timeZone: prompt.timeZone)) (\(prompt.weekday), \(prompt.timeZone.identifier)). "
            user += "Today is \(DateParser.formatDate(prompt.now, timeZone: prompt.timeZone)).\n"
        }
        user += "Skills and playbooks (* required):\n"
        // `- reminders.list (query): …`: the id first, as the answer writes it (after `- skill ` a
        // small model wrote "skill reminders.list", which the schema refuses, and chose none).
        for offer in offers {
            let described = prompt.describe(offer, outputs: [])
            let kind = "- \(offer.layer == .skill ? "skill" : "playbook") "
            user += described.hasPrefix(kind) ? "- " + described.dropFirst(kind.count) : described
        }
        user += "Request: \(prompt.redactor.redact(request))"
        return [ChatMessage(.system, Self.rules), ChatMessage(.user, user)]
    }

    /// `{"anyOf": [{"choice": {"enum": [ID]}, "with": {its parameters, none required}}…, {"choice": {"enum": ["none"]}}]}`:
    /// a literal path or address starts with one the request names, as in a plan.
    public static func schema(offers: [PlanOffer], request: String) -> Value {
        let values = RequestValues(request)
        let scope = PlanSchema.ReferenceScope(sources: [])
        var branches: [Value] = offers.map { offer in
            var properties: ValueObject = [:]
            for (name, schema) in offer.parameters.properties {
                properties[name] = PlanSchema.value(schema, name: name, scope: scope, values: values)
            }
            return [
                "type": "object",
                "properties": [
                    "choice": ["enum": [.string(offer.name)]],
                    "with": ["type": "object", "properties": .object(properties), "additionalProperties": false],
                ],
                "required": ["choice", "with"], "additionalProperties": false,
            ]
        }
        branches.append([
            "type": "object", "properties": ["choice": ["enum": ["none"]]], "required": ["choice"], "additionalProperties": false,
        ])
        return ["anyOf": .array(branches)]
    }

    /// Asks the model once (temperature 0, within the budget's seconds) which of `offers` does `request`.
    /// The offers are trimmed for the request (`PlanOffer.trimmed(for:)`): an optional parameter
    /// with a default that the request does not name is not shown, so the model does not fill it.
    public func choose(_ request: String, offers given: [PlanOffer]) async -> Verdict {
        guard !given.isEmpty else { return .none }
        let offers = given.map { $0.trimmed(for: request) }
        let asked = ChatRequest(
            messages: messages(request: request, offers: offers), temperature: 0, maxTokens: Self.answerTokens,
            responseFormat: PlanSchema.responseFormat(schema: Self.schema(offers: offers, request: request)),
            timeout: budget.maxSeconds)
        let response: ChatResponse
        do {
            response = try await client.complete(asked)
        } catch let error as ChatError {
            return .failed(error.message)
        } catch {
            return .failed("\(error)")
        }
        guard let text = response.content, let value = PlanParser.extractJSON(text), let choice = value["choice"]?.stringValue else {
            return .failed("the model's answer names no choice: \(PlanParser.snippet(response.content ?? ""))")
        }
        if choice == "none" { return .none }
        guard let offer = offers.first(where: { $0.name == choice }) else {
            return .failed("the model chose '\(choice)', which was not offered")
        }
        return .chose(choice, inputs: value["with"]?.objectValue ?? [:]).fitting(offer, request: request, prompt: prompt)
    }
}

extension SecondOpinion.Verdict {
    /// The chosen inputs coerced to their schemas (dates against the prompt's clock); a value that
    /// does not fit, names no parameter, is the parameter's default, is a date where the request
    /// names none, or is a free text the request does not hold is left out (the flow then asks for
    /// it when required).
    func fitting(_ offer: PlanOffer, request: String, prompt: PromptBuilder) -> Self {
        guard case .chose(let name, let given) = self else { return self }
        let coercion = Coercion(dates: DateParser(now: prompt.now, timeZone: prompt.timeZone))
        let namesDate = PlanSkeleton.datePhrase(in: request, dates: coercion.dates) != nil
        var inputs: ValueObject = [:]
        for (key, value) in given {
            guard let schema = offer.parameters.property(key) else { continue }
            let coerced = coercion.coerce(value, to: schema)
            // Its default says nothing the route would not do anyway; a date the request does not
            // name is the model's (today, mostly), not the person's.
            if coerced == schema.defaultValue { continue }
            if schema.format == "date" || schema.format == "date-time", !namesDate { continue }
            // A free text the request does not hold is the model's ("Alarm for 6", a tag "none").
            if schema.isFreeText, let text = coerced.stringValue,
                !request.localizedCaseInsensitiveContains(text.trimmingCharacters(in: .whitespaces))
            {
                continue
            }
            if SchemaValidator.validate(coerced, against: schema).isEmpty { inputs[key] = coerced }
        }
        return .chose(name, inputs: inputs)
    }
}
