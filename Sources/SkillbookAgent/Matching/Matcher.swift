public import Foundation
import SkillbookCore

/// The one matcher of layers 1 and 2: playbook triggers and skill examples are both phrases with
/// typed `{slot}`s, scored the same way.
///
/// A candidate's confidence is the better of two scores:
/// - a pattern that matches the whole request (after fillers are dropped): `patternBase` rising to 1
///   with the share of the request's characters its literal text and typed slots explain;
/// - word scoring (`WordIndex`), capped at `wordCap`.
/// The best candidate is taken when it reaches `accept` and leads the runner-up by `margin`; a
/// closer race is a near tie (layer `none` with a question). A request whose clauses ("…and then…",
/// "…然后…", "…and save it as a note") are each taken by different targets is plan-shaped.
public struct Matcher: Sendable {
    public let targets: [RouteTarget]
    public let thresholds: MatchThresholds
    let patterns: [[PhrasePattern?]]
    let words: WordIndex

    public init(targets: [RouteTarget], thresholds: MatchThresholds = .standard) {
        self.targets = targets
        self.thresholds = thresholds
        let patterns = targets.map { target in
            let slots = Dictionary(target.inputs.map { ($0.name, $0.schema) }, uniquingKeysWith: { a, _ in a })
            return target.phrases.map { PhrasePattern($0, slots: slots) }
        }
        self.patterns = patterns
        self.words = WordIndex(targets, patterns: patterns)
    }

    /// The time and zone relative dates are resolved against (`--now`, `--timezone`).
    public struct ReferenceTime: Sendable {
        public var now: Date
        public var timeZone: TimeZone
        public init(now: Date, timeZone: TimeZone) {
            self.now = now
            self.timeZone = timeZone
        }
    }

    /// Every target's score for `request`, best first (ties by layer, playbooks first, then name).
    public func rank(_ request: String, clock: ReferenceTime) -> [RouteCandidate] {
        let text = FoldedText(request)
        guard text.count > 0 else { return [] }
        let dates = DateParser(now: clock.now, timeZone: clock.timeZone)
        let matcher = PatternMatcher(dates: dates)
        let coercion = Coercion(dates: dates)
        // Paths and addresses are values, not words of what to do: `/tmp/project.tar.gz` is no
        // reason to archive.
        // So is a quoted text of several words ("with the text 'milk, eggs, bread'").
        let wordScores = words.scores(words.request(TextFolding.withoutQuotedTexts(TextFolding.withoutAddresses(text.text))))
        let compact = text.lower.filter { $0 != " " }
        let total = max(1, compact.count)
        var ranked: [RouteCandidate] = []
        ranked.reserveCapacity(targets.count)
        for (i, target) in targets.enumerated() {
            var best = min(thresholds.wordCap, wordScores[i])
            var inputs: ValueObject = [:]
            var pattern: String?
            for case let phrase? in patterns[i] {
                guard let match = matcher.match(phrase, text, compact: compact) else { continue }
                let explained = min(1, Double(match.explained) / Double(total))
                let confidence = thresholds.patternBase + (1 - thresholds.patternBase) * explained
                guard confidence > best || pattern == nil && confidence >= best else { continue }
                best = confidence
                pattern = phrase.phrase
                inputs = Self.inputs(match, coercion)
            }
            ranked.append(RouteCandidate(target: target, index: i, confidence: best, inputs: inputs, pattern: pattern))
        }
        ranked.sort { a, b in
            if a.confidence != b.confidence { return a.confidence > b.confidence }
            if a.layer != b.layer { return a.layer == .playbook }
            return a.target < b.target
        }
        return ranked
    }

    static func inputs(_ match: PatternMatcher.Match, _ coercion: Coercion) -> ValueObject {
        var inputs: ValueObject = [:]
        for capture in match.captures {
            let raw: Value
            switch capture.kind {
            case .uri: raw = .string(PatternMatcher.url(capture.text) ?? capture.text)
            case .list(let item):
                let items = PatternMatcher.listItems(capture.text)
                raw = .array(items.map { PhrasePattern.kind(of: item) == .uri ? .string(PatternMatcher.url($0) ?? $0) : .string($0) })
            case .choice(let values): raw = .string(values.first { $0.lowercased() == capture.text.lowercased() } ?? capture.text)
            default: raw = .string(capture.name == "glob" ? Self.globOfKind(capture.text) : capture.text)
            }
            inputs[capture.name] = coercion.coerce(raw, to: capture.schema)
        }
        return inputs
    }

    /// A kind of file said as its extension ("the pdf files", "all .tmp files", "所有 jpg 文件"): the
    /// glob of that extension (`*.pdf`), for the extensions `RequestValues` reads paths by and `tmp`;
    /// any other text ("report", a glob already) is itself.
    static func globOfKind(_ text: String) -> String {
        let bare = (text.hasPrefix(".") ? String(text.dropFirst()) : text).lowercased()
        guard RequestValues.extensions.contains(bare) || bare == "tmp" else { return text }
        return "*." + bare
    }

    /// The decision for `request`: a playbook, a skill, a plan-shaped request, or none.
    public func decide(_ request: String, clock: ReferenceTime) -> RouteDecision {
        // A greeting alone asks for nothing; one before a request is not part of it (`早上好，写日记`
        // is one clause, not two).
        let folded = FoldedText(request)
        if folded.isGreeting {
            var decision = RouteDecision(layer: .none)
            decision.coversSomePart = false
            return decision
        }
        let request = folded.count > 0 ? folded.text : request
        let clauses = CompoundSplitter.clauses(of: request)
        var clauseCovered = false
        var picks: [RouteDecision] = []
        if clauses.count >= 2 {
            picks = clauses.map { single($0, clock: clock) }
            // A clause is some target's when the matcher takes it, or when two targets tie for an
            // action it starts with a verb for (which is the planner's to choose: the skeleton
            // offers both). "keep only the name and size" is no two actions.
            let taken = zip(clauses, picks).filter { clause, pick in
                Self.reachesAccept(pick) && (pick.layer != .none || CompoundSplitter.startsWithVerb(clause))
            }.map(\.1)
            if taken.count >= 2, Set(taken.compactMap { $0.candidates.first?.target }).count >= 2 {
                let candidates = taken.compactMap { $0.candidates.first }
                return RouteDecision(
                    layer: .plan, confidence: candidates.map(\.confidence).min() ?? 0, candidates: candidates,
                    clauses: clauses)
            }
            clauseCovered = picks.contains(where: \.coversSomePart)
        }
        // A part of a clause before or after a comma the matcher takes covers some of the request
        // too ("Read F, find the invoice numbers … and set a reminder …": files.read), as it makes
        // a step of the skeleton; the request is the planner's, not out of scope.
        if !clauseCovered {
            let parts = clauses.flatMap { CompoundSplitter.commaParts($0).flatMap { $0.components(separatedBy: "，") } }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if parts.count > max(clauses.count, 1) {
                clauseCovered = parts.contains { part in
                    let pick = single(part, clock: clock)
                    return pick.layer == .skill || pick.layer == .playbook
                }
            }
        }
        // A clause naming a mail address, near a target that sends mail, is that target's part
        // ("…, and mail them to ana@example.org from … via smtp://…": mail.send), however its
        // words score — as the skeleton reads it.
        if !clauseCovered {
            clauseCovered = clauses.contains { clause in
                !RequestValues(clause).emails.isEmpty
                    && rank(clause, clock: clock).prefix(4).contains { candidate in
                        targets.first { $0.name == candidate.target }?.inputs.contains { $0.schema.holdsEmail } == true
                    }
            }
        }
        var decision = single(request, clock: clock)
        decision.coversSomePart = decision.coversSomePart || clauseCovered
        // Two actions ("list X and email it to Bob", "新建文件夹 X 然后把 Y 移进去") are never one
        // skill's, even when only one of them is here: the planner gets the request (and declines
        // what nothing can do). Nor is a request of two actions a near tie between two skills that
        // each fit one of them ("find the logs in X and move them to Y": files.delete or files.move?)
        // when one of its clauses is taken. A verb inside a captured text ("remind me to call Anna
        // and tell her") is that text's.
        let routed = decision.layer == .skill || decision.layer == .playbook
        if clauses.count >= 2, routed || decision.question != nil,
            let verbAt = clauses.indices.dropFirst().first(where: {
                CompoundSplitter.startsWithVerb(clauses[$0]) || CompoundSplitter.addressesUser(clauses[$0])
            }),
            // "这个提醒完成了，标记一下": the same action said again, not a second one.
            picks[verbAt].candidates.isEmpty || picks[verbAt].candidates.first?.target != picks[0].candidates.first?.target,
            case let verb = clauses[verbAt],
            CompoundSplitter.addressesUser(verb) || CompoundSplitter.followsOrderWord(verb, in: request)
                || !decision.inputs.keys.contains(where: { decision.inputs[$0]?.stringValue?.localizedCaseInsensitiveContains(verb) == true })
        {
            let taken = { (pick: RouteDecision) in pick.layer == .skill || pick.layer == .playbook }
            if routed ? picks.first.map(taken) == true : picks.contains(where: taken) {
                return RouteDecision(
                    layer: .plan, confidence: decision.confidence, candidates: picks.compactMap { $0.candidates.first },
                    clauses: clauses)
            }
        }
        // Every clause an action of its own ("read X, then find the phone numbers"), one of them
        // taken and each near some target: the planner's, though a clause is worded unlike any
        // example.
        if clauses.count >= 2, !routed, decision.question == nil, clauses.allSatisfy(CompoundSplitter.startsWithVerb),
            picks.contains(where: Self.reachesAccept),
            picks.allSatisfy({ ($0.candidates.first?.confidence ?? 0) >= thresholds.clause }),
            Set(picks.compactMap { $0.candidates.first?.target }).count >= 2
        {
            return RouteDecision(
                layer: .plan, confidence: decision.confidence, candidates: picks.compactMap { $0.candidates.first }, clauses: clauses)
        }
        // One action whose content names what a list query gives ("write my reminders for tomorrow
        // to F"): that query's output, so two steps (`listedObject`).
        if clauses.count < 2, let listed = listedObject(in: request, routed: decision, clock: clock) {
            // (the candidates are the two steps', which `ask` names: files.list, then files.move)
            let steps = [listed.list, listed.rest].compactMap { rank($0, clock: clock).first }
            return RouteDecision(layer: .plan, confidence: decision.confidence, candidates: steps, clauses: [listed.list, listed.rest])
        }
        return decision
    }

    /// Whether a clause's decision names a target that reaches the acceptance threshold: taken, or
    /// a near tie.
    static func reachesAccept(_ pick: RouteDecision) -> Bool {
        pick.layer == .playbook || pick.layer == .skill || (pick.layer == .none && pick.question != nil)
    }

    func single(_ request: String, clock: ReferenceTime) -> RouteDecision {
        let ranked = rank(request, clock: clock)
        let top = Array(ranked.prefix(3))
        guard let best = ranked.first, best.confidence >= thresholds.accept else {
            var decision = RouteDecision(layer: .none, confidence: ranked.first?.confidence ?? 0, candidates: top)
            decision.coversSomePart = false
            return decision
        }
        if ranked.count > 1, best.confidence - ranked[1].confidence < thresholds.margin {
            let second = ranked[1]
            return RouteDecision(
                layer: .none, confidence: best.confidence, candidates: top,
                question: "Did you mean \(describe(best)) or \(describe(second))?")
        }
        let target = targets[best.index]
        let missing = target.required.filter { best.inputs[$0] == nil }
        var question: String?
        if let first = missing.first {
            let about = target.schema(of: first)?.description.map { " (\($0))" } ?? ""
            question = "What should '\(first)' be\(about)?"
        }
        return RouteDecision(
            layer: best.layer == .playbook ? .playbook : .skill, target: best.target, inputs: best.inputs,
            confidence: best.confidence, candidates: top, question: question, missing: missing)
    }

    private func describe(_ candidate: RouteCandidate) -> String {
        let target = targets[candidate.index]
        return "\(candidate.layer.rawValue) '\(candidate.target)' (\(target.title))"
    }
}
