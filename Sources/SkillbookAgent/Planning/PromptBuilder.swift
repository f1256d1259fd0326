public import Foundation
public import SkillbookCore

/// The messages a plan is asked for with: the rules once, today's date and zone, the offered
/// skills and playbooks (each with its parameters, required ones marked, and output fields), and
/// the request. It shows formats, never a complete example plan (a small model copies examples).
/// Secret parameters are not offered, and `redactor` masks any secret in the request.
public struct PromptBuilder: Sendable {
    /// At most this many skills and playbooks are offered.
    public static let maximumOffers = 20

    public var now: Date
    public var timeZone: TimeZone
    public var redactor: Redactor

    public init(now: Date, timeZone: TimeZone, redactor: Redactor = Redactor()) {
        self.now = now
        self.timeZone = timeZone
        self.redactor = redactor
    }

    /// The offers for a request, at most `limit`: for a request of several clauses ("… and then …",
    /// "…然后…") the best `perClause` targets of each clause first, taken in turns, so every
    /// clause's skill is offered; then the targets the matcher scores highest for the whole request.
    public static func choose(
        _ offers: [PlanOffer], for request: String, matcher: Matcher, clock: Matcher.Clock, limit: Int = maximumOffers,
        perClause: Int = 3
    ) -> [PlanOffer] {
        let byName = Dictionary(offers.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let ranked = matcher.rank(request, clock: clock).compactMap { byName[$0.target] }
        guard !ranked.isEmpty else { return Array(offers.prefix(limit)) }
        var names: [String] = []
        let clauses = CompoundSplitter.clauses(of: request)
        if clauses.count > 1 {
            let lists = clauses.map { matcher.rank($0, clock: clock).compactMap { byName[$0.target]?.name } }
            for turn in 0..<perClause {
                for list in lists where turn < list.count && !names.contains(list[turn]) { names.append(list[turn]) }
            }
        }
        for offer in ranked where !names.contains(offer.name) { names.append(offer.name) }
        return Array(names.prefix(limit).compactMap { byName[$0] })
    }

    static let rules = """
        You turn a request into a plan of steps for Skillbook. Use only the skills and playbooks listed. \
        Answer with one JSON object and nothing else: {"steps": [STEP, ...]} where STEP is \
        {"id": ID, "skill": SKILL_ID, "with": {PARAMETER: VALUE, ...}} (or "playbook": NAME instead of "skill"), \
        ID is lowercase letters, digits and _, unique. Give every parameter marked required. \
        Copy paths, addresses, titles and other values from the request exactly. \
        When the request is unclear or nothing listed fits, answer {"question": "what you need to know"}.
        References: to pass an earlier step's output to a later step, the whole parameter value is exactly \
        ${{ steps.ID.output.FIELD }} with FIELD one of that step's output fields below (items.*.path is the \
        list of every item's path). Nothing else goes inside ${{ }}: no text around it, no {{ }} without $, no | filters. \
        A step that reads something (a query) is there to feed a later step: that later step refers to its output.
        Dates: a date parameter is YYYY-MM-DD, a date-time YYYY-MM-DDTHH:MM:SS+HH:MM; words like tomorrow 9am are also accepted.
        """

    public func messages(request: String, offers: [PlanOffer]) -> [ChatMessage] {
        var user = "Now: \(DateParser.formatDateTime(now, timeZone: timeZone)) (\(weekday), time zone \(timeZone.identifier)). "
        user += "Today is \(DateParser.formatDate(now, timeZone: timeZone)); tomorrow is \(DateParser.formatDate(now.addingTimeInterval(86_400), timeZone: timeZone)).\n\n"
        user += "Skills and playbooks:\n"
        for offer in offers.prefix(Self.maximumOffers) { user += describe(offer) }
        user += "\nRequest: \(redactor.redact(request))"
        return [ChatMessage(.system, Self.rules), ChatMessage(.user, user)]
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

    func describe(_ offer: PlanOffer) -> String {
        let summary = Self.firstSentence(offer.summary.split(separator: "\n").joined(separator: " "))
        var text = "- \(offer.layer == .skill ? "skill" : "playbook") \(offer.name) (\(offer.kind.rawValue)): \(summary)\n"
        let parameters = offer.parameters.properties.map { name, schema in
            var type = schema.typeDescription
            if let format = schema.format { type += ", \(format)" }
            if let values = schema.enumValues?.compactMap(\.stringValue) { type += ", one of \(values.joined(separator: "|"))" }
            return "\(name) (\(type)\(offer.required.contains(name) ? ", required" : ""))"
        }
        text += "  parameters: \(parameters.isEmpty ? "none" : parameters.joined(separator: "; "))\n"
        text += "  output: \(offer.outputFields.isEmpty ? "none" : offer.outputFields.joined(separator: ", "))\n"
        return text
    }
}
