public import Foundation
public import SkillbookCore

/// The messages a plan is asked for with: the rules once, today's date and zone, the offered
/// skills and playbooks (each with its parameters, required ones marked, and output fields), and
/// the request. It shows formats, never a complete example plan (a small model copies examples).
/// Secret parameters are not offered, and `redactor` masks any secret in the request.
public struct PromptBuilder: Sendable {
    /// At most this many skills and playbooks are offered.
    public static let maximumOffers = 20
    /// Offers when the matcher is unsure of a clause (`choose`'s default `limit`): every offer
    /// lengthens a prompt that a small local model reads at a few tokens a second.
    public static let defaultOffers = 8

    public var now: Date
    public var timeZone: TimeZone
    public var redactor: Redactor

    public init(now: Date, timeZone: TimeZone, redactor: Redactor = Redactor()) {
        self.now = now
        self.timeZone = timeZone
        self.redactor = redactor
    }

    /// The offers for a request, at most `limit`. Each clause of the request ("… and then …",
    /// "…然后…"; the whole request when it has one) contributes its best target alone when the
    /// matcher is sure of it (it reaches `thresholds.accept` and leads the runner-up by
    /// `thresholds.margin`), else its best `perClause` that reach `PlanSkeleton.runnerUpShare` of
    /// its best, taken in turns so every clause's skill is offered; then up to `extra` targets the
    /// matcher scores above 0 for the whole request, highest first; then
    /// any adapter (`isAdapter`: a list in, a text out, such as text.join) when an offer gives a list
    /// and another takes a text, since a text parameter can refer only to a text.
    /// Fewer offers make a shorter prompt, which a small local model reads at a few tokens a second.
    public static func choose(
        _ offers: [PlanOffer], for request: String, matcher: Matcher, clock: Matcher.ReferenceTime, limit: Int = defaultOffers,
        perClause: Int = 2, extra: Int = 2
    ) -> [PlanOffer] {
        let byName = Dictionary(offers.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let ranked = matcher.rank(request, clock: clock).filter { byName[$0.target] != nil }
        guard !ranked.isEmpty else { return Array(offers.prefix(limit)) }
        var names: [String] = []
        let lists = clauses(of: request, matcher: matcher, clock: clock).map { clause -> [String] in
            let list = matcher.rank(clause, clock: clock).filter { byName[$0.target] != nil }
            guard let best = list.first else { return [] }
            let runnerUp = list.count > 1 ? list[1].confidence : 0
            if best.confidence >= matcher.thresholds.accept, best.confidence - runnerUp >= matcher.thresholds.margin {
                return [best.target]
            }
            // Its runner-up only when near it (`PlanSkeleton.runnerUpShare`), as the skeleton offers it: a
            // playbook at 0.00 beside files.move at 0.24 is noise a small model adds as a step.
            return list.prefix(perClause).filter { $0.confidence >= best.confidence * PlanSkeleton.runnerUpShare }.map(\.target)
        }
        for turn in 0..<perClause {
            for list in lists where turn < list.count && !names.contains(list[turn]) { names.append(list[turn]) }
        }
        let total = min(limit, names.count + extra)
        for candidate in ranked where names.count < total && candidate.confidence > 0 && !names.contains(candidate.target) {
            names.append(candidate.target)
        }
        let chosen = names.compactMap { byName[$0] }
        if chosen.contains(where: \.givesList), chosen.contains(where: \.takesText) {
            for adapter in offers where adapter.isAdapter && !names.contains(adapter.name) { names.append(adapter.name) }
        }
        return Array(names.prefix(limit).compactMap { byName[$0] })
    }

    /// The clauses whose best target the matcher is sure of (it reaches `accept` and leads the
    /// runner-up by `margin`), with that target: a plan must use each (`Planner`'s `covering`), so
    /// "… and save it as a note" cannot be dropped.
    public static func sureTargets(for request: String, matcher: Matcher, clock: Matcher.ReferenceTime) -> [(clause: String, target: String)] {
        clauses(of: request, matcher: matcher, clock: clock).compactMap { clause in
            let list = matcher.rank(clause, clock: clock)
            guard let best = list.first else { return nil }
            let runnerUp = list.count > 1 ? list[1].confidence : 0
            guard best.confidence >= matcher.thresholds.accept, best.confidence - runnerUp >= matcher.thresholds.margin else { return nil }
            return (clause, best.target)
        }
    }

    /// The least number of steps a plan for `request` has: one for each clause whose best target
    /// reaches the matcher's acceptance ("summarize X" and "save it as a note": two).
    public static func minimumSteps(for request: String, matcher: Matcher, clock: Matcher.ReferenceTime) -> Int {
        let taken = clauses(of: request, matcher: matcher, clock: clock).filter { clause in
            (matcher.rank(clause, clock: clock).first?.confidence ?? 0) >= matcher.thresholds.accept
        }
        return max(1, taken.count)
    }

    /// The clauses of a request as the matcher splits it ("… and then …", "…然后…").
    public static func clauses(of request: String) -> [String] {
        CompoundSplitter.clauses(of: request)
    }

    /// The clauses as the skeleton reads them (`PlanSkeleton.steps`): "read X, find …" is two
    /// when each part starts an action the matcher reaches `accept` for.
    public static func clauses(of request: String, matcher: Matcher, clock: Matcher.ReferenceTime) -> [String] {
        PlanSkeleton.steps(of: request, accept: matcher.thresholds.accept) { matcher.rank($0, clock: clock).first?.confidence ?? 0 }
    }

    static let rules = """
        You turn a request into a plan of steps for Skillbook, using only the skills and playbooks listed. \
        Answer with compact JSON only, on one line (no spaces between items, no line breaks): {"steps":[STEP,...]} where STEP is \
        {"skill":SKILL,"with":{PARAMETER:VALUE,...}} ("playbook":NAME instead of "skill" for a playbook). \
        The steps are named s1, s2, s3 ... in order. \
        Give every parameter marked *; leave out the others unless the request gives them. \
        Copy paths, addresses, titles and other values from the request exactly.
        References: to pass an earlier step's output to a later step, the whole value is exactly \
        ${{ steps.sN.output.FIELD }}, sN that earlier step and FIELD one of its outputs (items.*.path is the list of every item's path). \
        Nothing else goes inside ${{ }}: no text around it, no {{ }} without $, no | filters. \
        A step that reads something (a query) feeds a later step, which refers to its output.
        Dates: a date is YYYY-MM-DD, a date-time YYYY-MM-DDTHH:MM:SS+HH:MM; words like tomorrow 9am are also accepted.
        When nothing listed does what the request asks, or it is unclear, answer {"question":"what you need to know"}.
        """

    /// What a plan is asked for with: the messages, the response format and, when the skeleton
    /// can be written (`PlanSchema.shape`), its shape.
    public struct Question: Sendable {
        public var messages: [ChatMessage]
        public var responseFormat: Value
        public var shape: PlanSchema.Shape?
    }

    /// The question for `request`: along the skeleton's shape when there is one (its targets
    /// trimmed, `offers`, `minSteps` and `maxSteps` unused), else over `offers` trimmed for the
    /// request with `minSteps` to `maxSteps` steps; paths and addresses held to the request's.
    public func question(
        request: String, offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil, skeleton: PlanSkeleton? = nil
    ) -> Question {
        let values = RequestValues(request)
        if let shape = skeleton.flatMap({ PlanSchema.shape($0.trimmed(for: request), values: values) }) {
            return Question(
                messages: messages(request: request, offers: shape.offers, shape: shape),
                responseFormat: PlanSchema.responseFormat(schema: shape.schema), shape: shape)
        }
        let trimmed = offers.map { $0.trimmed(for: request) }
        return Question(
            messages: messages(request: request, offers: trimmed),
            responseFormat: PlanSchema.responseFormat(trimmed, minSteps: minSteps, maxSteps: maxSteps, values: values), shape: nil)
    }

    /// The system message (the rules, the same for every request, so a server that caches prompts
    /// reads it once) and the user message: the date when an offer takes a date, the offers, the request.
    /// With `shape` (a skeleton's, `PlanSchema.shape`), the user message lists its targets with
    /// only the outputs a later step can take, and states the steps' order, each with its clause.
    public func messages(request: String, offers: [PlanOffer], shape: PlanSchema.Shape? = nil) -> [ChatMessage] {
        let shown = Array(offers.prefix(Self.maximumOffers))
        var user = ""
        if shown.contains(where: \.takesDate) {
            user += "Now: \(DateParser.formatDateTime(now, timeZone: timeZone)) (\(weekday), \(timeZone.identifier)). "
            user += "Today is \(DateParser.formatDate(now, timeZone: timeZone)); tomorrow is \(DateParser.formatDate(now.addingTimeInterval(86_400), timeZone: timeZone)).\n"
        }
        user += "Skills and playbooks (* required):\n"
        for offer in shown { user += describe(offer, outputs: shape.map { Self.usableOutputs(of: offer, in: $0.sequences) }) }
        if let shape { user += order(shape.sequences) }
        user += "Request: \(redactor.redact(request))"
        return [ChatMessage(.system, Self.rules), ChatMessage(.user, user)]
    }

    /// `Steps in order: s1 files.read ('read /tmp/todo.txt'), s2 notes.create ('save it as a note
    /// titled Todo').` from the sequences the answer schema allows; where they differ by an adapter,
    /// `then text.join if a list must become a text`. Clauses are redacted like the request.
    /// A clause the matcher captured values from gives them: `s1 reminders.create ('提醒我下周五下午3点交报告':
    /// title "交报告")`.
    func order(_ sequences: [[PlanSkeleton.Slot]]) -> String {
        func named(_ slot: PlanSkeleton.Slot) -> String {
            let about = slot.offers.allSatisfy(\.isAdapter) ? " (joins a list into a text)" : ""
            let hints = slot.hints.sorted { $0.key < $1.key }.compactMap { name, value in
                value.stringValue.map { "\(name) \(JSONText.encode(.string(redactor.redact($0))))" }
            }
            let given = hints.isEmpty ? "" : ": " + hints.joined(separator: ", ")
            return slot.names.joined(separator: " or ") + (slot.clause.map { " ('\(redactor.redact($0))'\(given))" } ?? about)
        }
        guard let longest = sequences.max(by: { $0.count < $1.count }) else { return "" }
        if sequences.count == 1 {
            return "Steps in order: " + longest.enumerated().map { "s\($0 + 1) " + named($1) }.joined(separator: ", ") + ".\n"
        }
        let steps = longest.map { slot in slot.clause == nil ? "then \(slot.names.joined(separator: " or ")) if a list must become a text" : named(slot) }
        return "Steps in order: " + steps.joined(separator: ", ") + "; they are s1, s2, s3 … as written.\n"
    }

    var weekday: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        return names[calendar.component(.weekday, from: now) - 1]
    }

    /// The first sentence of a summary (up to the first ". " or "。"): the prompt is read at a few
    /// tokens a second by a small local model, and the parameters and outputs say the rest.
    static func firstSentence(_ text: String) -> String {
        var end = text.endIndex
        if let dot = text.range(of: ". ") { end = min(end, dot.lowerBound) }
        if let stop = text.firstIndex(of: "。") { end = min(end, stop) }
        guard end < text.endIndex else { return text }
        return String(text[..<end]) + (text[end] == "。" ? "。" : ".")
    }

    /// `- skill ID (kind): first sentence`, then `  with: name* (type); …` and `  output: a, b, items.*.path`.
    /// What a target does, in its summary's first sentence, without parentheses and without the
    /// "and returns { … }" part the output line lists.
    public static func gist(_ summary: String) -> String {
        var text = firstSentence(summary.split(separator: "\n").joined(separator: " "))
        while let open = text.range(of: " ("), let close = text[open.upperBound...].firstIndex(of: ")") {
            text.removeSubrange(open.lowerBound...close)
        }
        while let such = text.range(of: " such as ") {
            let rest = text[such.upperBound...]
            let end =
                rest.indices.first { i in
                    let next = rest.index(after: i)
                    return ",;.".contains(rest[i]) && (next == rest.endIndex || rest[next] == " ")
                } ?? text.endIndex
            text.removeSubrange(such.lowerBound..<end)
        }
        // "Notifies the user: writes the message to …": what it does, not how.
        if let colon = text.range(of: ": ") { text = String(text[..<colon.lowerBound]) + "." }
        for marker in [" and returns ", " returns {"] {
            guard let cut = text.range(of: marker) else { continue }
            text = String(text[..<cut.lowerBound])
            while text.hasSuffix(",") || text.hasSuffix(" ") { text.removeLast() }
            text += "."
        }
        return text
    }

    /// With `outputs`, only those output fields are listed, and none (no `output:` line) when empty.
    /// A fixed value (`PlanOffer.fixedValues`) is listed as `due = 2026-12-04T15:00:00+01:00 (filled in)`.
    func describe(_ offer: PlanOffer, outputs: [String]? = nil) -> String {
        let outputsGiven = outputs != nil
        let summary = Self.gist(offer.summary)
        var text = "- \(offer.layer == .skill ? "skill" : "playbook") \(offer.name) (\(offer.kind.rawValue)): \(summary)\n"
        let fixed = offer.fixedValues
        let parameters = offer.parameters.properties.map { name, schema in
            // Filled in by the planner (`FixedValues`); the answer schema has no room for it.
            if let value = fixed[name] { return "\(name) = \(value.stringValue ?? JSONText.encode(value)) (filled in)" }
            var type = schema.typeDescription
            if let format = schema.format { type += ", \(format)" }
            if let values = schema.enumValues?.compactMap(\.stringValue) { type += ", one of \(values.joined(separator: "|"))" }
            return "\(name)\(offer.required.contains(name) ? "*" : "") (\(type))"
        }
        text += "  with: \(parameters.isEmpty ? "nothing" : parameters.joined(separator: "; "))\n"
        let outputs = outputs ?? offer.outputFields
        if outputs.isEmpty, outputsGiven { return text }
        text += "  output: \(outputs.isEmpty ? "none" : outputs.joined(separator: ", "))\n"
        return text
    }

    /// The output fields of `offer` that a parameter of a later step of some sequence can take;
    /// none (no `output:` line) for a target only the last step may be: a small model reads every
    /// listed field at a few tokens a second.
    static func usableOutputs(of offer: PlanOffer, in sequences: [[PlanSkeleton.Slot]]) -> [String] {
        var later: [PlanOffer] = []
        for sequence in sequences {
            guard let first = sequence.firstIndex(where: { $0.names.contains(offer.name) }) else { continue }
            later += sequence[(first + 1)...].flatMap(\.offers)
        }
        return offer.outputFields.filter { field in
            later.contains { step in
                step.parameters.properties.contains { offer.type(of: field).isAssignable(to: $0.schema) }
            }
        }
    }
}

extension PlanOffer {
    /// A query with an output field that is a list of scalars (`items.*.path`, `matches`).
    var givesList: Bool {
        kind == .query && outputTypes.values.contains { type in
            if case .array(let element) = type { return element == .string || element == .integer || element == .number }
            return false
        }
    }

    /// Some parameter is a web address (`format: uri`).
    var takesAddress: Bool { parameters.properties.contains { $0.schema.format == "uri" } }

    /// A required parameter is a web address (web.fetch's, web.request's `url`).
    var needsAddress: Bool { parameters.properties.contains { $0.schema.format == "uri" && required.contains($0.name) } }

    /// Some parameter is a mail address or a list of them (`Schema.holdsEmail`).
    var takesEmail: Bool { parameters.properties.contains { $0.schema.holdsEmail } }

    /// Some parameter is a path or a list of paths.
    var takesPath: Bool { parameters.properties.contains { NamedPathLint.takesPath($0.schema) } }

    /// A required parameter is a path or a list of paths (files.write's `path`, not mail.send's
    /// optional `ca_file`).
    var needsPath: Bool { parameters.properties.contains { NamedPathLint.takesPath($0.schema) && required.contains($0.name) } }

    /// Some parameter is a text to work on (`PlanSchema.isContent`: text.extract's `text`).
    var takesTextContent: Bool { parameters.properties.contains { $0.schema.type == .string && PlanSchema.isContent($0.schema) } }

    /// Some output field is a text.
    var givesText: Bool { outputTypes.values.contains(.string) }

    /// Some parameter is a text.
    var takesText: Bool { parameters.properties.contains { $0.schema.type == .string } }

    /// A query that turns a list of anything into a text: a required list parameter whose items
    /// may be of any type, and a text output field (text.join).
    var isAdapter: Bool {
        kind == .query && outputTypes.values.contains(.string)
            && parameters.properties.contains { property in
                required.contains(property.name) && property.schema.type == .array
                    && property.schema.items.map { ExprType(schema: $0) == .any } ?? true
            }
    }

    /// Whether a parameter is a date or a date-time the request did not fix (the prompt then
    /// states today's date; a date fixed by `fixingDates` is listed with its one value).
    var takesDate: Bool {
        parameters.properties.contains { property in
            (property.schema.format == "date" || property.schema.format == "date-time") && property.schema.enumValues == nil
        }
    }
}
