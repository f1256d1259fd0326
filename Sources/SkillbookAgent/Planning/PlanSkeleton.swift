import Foundation
import SkillbookCore

/// The shape of a plan as the matcher reads it off a request: one step per clause ("summarize X"
/// → web.summary, "save it as a note" → notes.create), in the request's order, each step one of
/// the few targets its clause matches best; between a step that gives a list and one that takes a
/// text, an adapter (text.join) may come. The answer schema is then built over these sequences
/// (`PlanSchema.schema(_:values:)`), so the model fills in values and passes data, and cannot
/// reorder the steps, add one, refer to itself or to a later step, or leave a query's output unused.
///
/// A request with one clause, or with a clause that nothing matches well enough
/// (`floor`), has no skeleton: the model then plans freely over the offers.
public struct PlanSkeleton: Sendable {
    /// One step of the plan: the clause it does (`nil` for an adapter) and the targets it may name,
    /// each with the date its clause names fixed (`PlanOffer.fixingDates`: "remind me tomorrow at
    /// 9am …" allows reminders.create's `due` only as 2026-12-02T09:00:00+01:00).
    public struct Slot: Sendable {
        public var clause: String?
        public var offers: [PlanOffer]

        public init(clause: String?, offers: [PlanOffer]) {
            self.clause = clause
            self.offers = offers
        }

        public var names: [String] { offers.map(\.name) }
    }

    /// One slot per clause, in order.
    public var slots: [Slot]
    /// The targets that may join a list into a text between two slots.
    public var adapters: [PlanOffer]

    public init(slots: [Slot], adapters: [PlanOffer] = []) {
        self.slots = slots
        self.adapters = adapters
    }

    /// A clause's best target must reach this for the request to have a skeleton; a runner-up
    /// this close to it (`runnerUpShare` of the best) is offered beside it.
    public static let floor = 0.3
    public static let runnerUpShare = 0.6
    /// At most this many adapters go into one plan (so at most 2^2 sequences).
    static let maximumAdapters = 2

    /// The skeleton of `request` over `offers` (every skill and playbook), or `nil` when it has
    /// one clause or a clause nothing matches. A clause the matcher is sure of (it reaches
    /// `thresholds.accept` and leads by `thresholds.margin`) names its best target alone, another
    /// its best `perClause`. A clause "a, b" whose parts each reach `accept` counts as two.
    public static func make(
        for request: String, offers: [PlanOffer], matcher: Matcher, clock: Matcher.ReferenceTime,
        perClause: Int = 2
    ) -> PlanSkeleton? {
        let byName = Dictionary(offers.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func ranked(_ clause: String) -> [RouteCandidate] {
            matcher.rank(clause, clock: clock).filter { byName[$0.target] != nil }
        }
        var clauses: [String] = []
        for clause in CompoundSplitter.clauses(of: request) {
            let parts = clause.components(separatedBy: ", ").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            let each =
                parts.count > 1
                && parts.allSatisfy { (ranked($0).first?.confidence ?? 0) >= matcher.thresholds.accept }
            clauses += each ? parts : [clause]
        }
        guard clauses.count >= 2 else { return nil }
        let coercion = Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone))
        var slots: [Slot] = []
        for clause in clauses {
            let list = ranked(clause)
            guard let best = list.first, best.confidence >= floor else { return nil }
            let runnerUp = list.count > 1 ? list[1].confidence : 0
            let sure =
                best.confidence >= matcher.thresholds.accept
                && best.confidence - runnerUp >= matcher.thresholds.margin
            let taken =
                sure
                ? [best]
                : Array(list.prefix(perClause).filter { $0.confidence >= best.confidence * runnerUpShare })
            let date = datePhrase(in: clause, dates: coercion.dates)
            let fixed = taken.compactMap { byName[$0.target] }.map { $0.fixingDates(dates(date, for: $0, coercion: coercion)) }
            slots.append(Slot(clause: clause, offers: fixed))
        }
        return PlanSkeleton(slots: slots, adapters: offers.filter(\.isAdapter))
    }

    /// The longest phrase of `clause` the shared date parser reads ("tomorrow at 9am", "明天"),
    /// over its words and Chinese characters, with whether it has a time of day; `nil` for "now"
    /// and for a bound ("before Friday", "周五之前"), which is no date a parameter is fixed to.
    static func datePhrase(in clause: String, dates: DateParser) -> (text: String, hasTime: Bool)? {
        var units: [(text: String, cjk: Bool)] = []
        for word in clause.split(separator: " ") {
            var latin = ""
            for c in word {
                if TextFolding.isCJK(c) {
                    if !latin.isEmpty {
                        units.append((latin, false))
                        latin = ""
                    }
                    units.append((String(c), true))
                } else {
                    latin.append(c)
                }
            }
            if !latin.isEmpty { units.append((latin, false)) }
        }
        var best: (text: String, hasTime: Bool, start: Int, end: Int)?
        for start in units.indices {
            var phrase = ""
            var found: (text: String, hasTime: Bool, start: Int, end: Int)?
            // Up to 8 words or 16 Chinese characters ("下星期一早上9点半").
            for end in start..<min(units.count, start + (units[start].cjk ? 16 : 8)) {
                if end > start, !units[end].cjk, !units[end - 1].cjk { phrase += " " }
                phrase += units[end].text
                if let parsed = dates.parse(phrase) { found = (phrase, parsed.hasTime, start, end) }
            }
            if let found, found.end - found.start > (best.map { $0.end - $0.start } ?? -1) { best = found }
        }
        guard let best, !["now", "现在"].contains(best.text.lowercased()) else { return nil }
        // "due before Friday", "until 5pm", "周五之前": a bound, not the date itself.
        let before = best.start > 0 ? units[best.start - 1].text.lowercased() : ""
        let after = best.end + 1 < units.count ? units[(best.end + 1)...].prefix(2).map(\.text).joined() : ""
        let bounds = ["之前", "以前", "之后", "以后"]
        if ["before", "until", "till", "after", "since", "by"].contains(before) || bounds.contains(where: after.hasPrefix) {
            return nil
        }
        return (best.text, best.hasTime)
    }

    /// `phrase` as the value of each of `offer`'s date parameters it fits: a phrase with a time
    /// fills the date-time ones, one without the date ones (`list my reminders for tomorrow`
    /// fills `due_on`, not `due_before`).
    static func dates(_ phrase: (text: String, hasTime: Bool)?, for offer: PlanOffer, coercion: Coercion) -> ValueObject {
        guard let phrase else { return [:] }
        var values: ValueObject = [:]
        for (name, schema) in offer.parameters.properties
        where schema.format == (phrase.hasTime ? "date-time" : "date") {
            let value = coercion.coerce(.string(phrase.text), to: schema)
            if let text = value.stringValue, FormatCheck.problem(text, format: schema.format ?? "") == nil {
                values[name] = value
            }
        }
        return values
    }

    /// Every sequence of slots a plan may follow: the clauses' slots, and with an adapter slot
    /// between a slot that can give a list but no text (notes.list) and a next one that can take
    /// a text (when neither is the adapter itself).
    public var sequences: [[Slot]] {
        guard !adapters.isEmpty else { return [slots] }
        let adapterNames = Set(adapters.map(\.name))
        var gaps: [Int] = []
        for i in slots.indices.dropLast() where gaps.count < Self.maximumAdapters {
            let here = slots[i]
            let next = slots[i + 1]
            guard here.offers.contains(where: { $0.givesList && !$0.givesText }),
                next.offers.contains(where: \.takesText),
                !here.names.contains(where: adapterNames.contains),
                !next.names.contains(where: adapterNames.contains)
            else { continue }
            gaps.append(i)
        }
        var sequences: [[Slot]] = [[]]
        for (i, slot) in slots.enumerated() {
            var grown: [[Slot]] = []
            for sequence in sequences {
                grown.append(sequence + [slot])
                if gaps.contains(i) {
                    grown.append(sequence + [slot, Slot(clause: nil, offers: adapters)])
                }
            }
            sequences = grown
        }
        return sequences
    }

    /// The skeleton with each offer trimmed for its own clause (`PlanOffer.trimmed(for:)`: "list my
    /// notes tagged work" keeps notes.list's `tag`, not the note's `tags` of the next clause; an
    /// adapter for the whole `request`). A fixed date has no default and stays.
    public func trimmed(for request: String) -> PlanSkeleton {
        PlanSkeleton(
            slots: slots.map { slot in Slot(clause: slot.clause, offers: slot.offers.map { $0.trimmed(for: slot.clause ?? request) }) },
            adapters: adapters.map { $0.trimmed(for: request) })
    }
}
