import Foundation
public import SkillbookCore

/// The shape of a plan as the matcher reads it off a request: one step per clause ("summarize X"
/// → web.summary, "save it as a note" → notes.create), in the request's order, each step one of
/// the few targets its clause matches best; between a step that gives a list and one that takes a
/// text, an adapter (text.join) may come. The answer schema is then built over these sequences
/// (`PlanSchema.schema(_:values:)`), so the model fills in values and passes data, and cannot
/// reorder the steps, add one, refer to itself or to a later step, or leave a query's output unused.
///
/// A request with one clause, or whose clauses nothing matches well enough (`floor`), has no
/// skeleton: the model then plans freely over the offers. A skeleton the matcher is unsure of
/// carries `doubts` (a clause under `floor` beside one that is sure, a clause holding more actions
/// than one step, a search worded clause whose best match changes something, a playbook matched
/// only through a word of a path); the planner then lets the model propose the order of the steps
/// from the offers instead of following it.
public struct PlanSkeleton: Sendable {
    /// Why the skeleton may be wrong, for one clause.
    public struct Doubt: Sendable, Hashable {
        public var clause: String
        public var reason: String

        public init(clause: String, reason: String) {
            self.clause = clause
            self.reason = reason
        }
    }

    /// One step of the plan: the clause it does (`nil` for an adapter) and the targets it may name,
    /// each with the date its clause names fixed (`PlanOffer.fixingDates`: "remind me tomorrow at
    /// 9am …" allows reminders.create's `due` only as 2026-12-02T09:00:00+01:00).
    public struct Slot: Sendable {
        public var clause: String?
        public var offers: [PlanOffer]
        /// The values the matcher captured from the clause for the one target it is sure of (a
        /// reminder's `title` "交报告" from "提醒我下周五下午3点交报告"), dates left out (the offer fixes
        /// them): the prompt names them beside the clause.
        public var hints: ValueObject

        public init(clause: String?, offers: [PlanOffer], hints: ValueObject = ValueObject()) {
            self.clause = clause
            self.offers = offers
            self.hints = hints
        }

        public var names: [String] { offers.map(\.name) }
    }

    /// One slot per clause, in order.
    public var slots: [Slot]
    /// The targets that may join a list into a text between two slots.
    public var adapters: [PlanOffer]

    /// Why the matcher's reading may be wrong; empty when it is sure enough to follow.
    public var doubts: [Doubt]

    public init(slots: [Slot], adapters: [PlanOffer] = [], doubts: [Doubt] = []) {
        self.slots = slots
        self.adapters = adapters
        self.doubts = doubts
    }

    /// The skeleton of an order of steps the model proposed (`PromptBuilder.sequenceQuestion`):
    /// one slot per id, no clause, no adapter to insert (the model chose them); `nil` when the list
    /// is empty or names something not among `offers`.
    public static func proposed(_ names: [String], offers: [PlanOffer]) -> PlanSkeleton? {
        let byName = Dictionary(offers.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let chosen = names.compactMap { byName[$0] }
        guard !names.isEmpty, chosen.count == names.count else { return nil }
        return PlanSkeleton(slots: chosen.map { Slot(clause: nil, offers: [$0]) })
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
            let list = matcher.rank(clause, clock: clock).filter { byName[$0.target] != nil }
            // A clause that names a path and no address of any kind is no target's that needs one
            // ("grab all the urls from /tmp/b.html": a read and an extraction, not web.request); a
            // mail server or recipient it names keeps mail.send, whose `server` is an address too.
            let values = RequestValues(clause)
            // Nor is a clause that names a web address and no mail address or server a mail's
            // ("send the list to my phone through http://…/hooks/phone": a webhook, not mail.send).
            if !values.addresses.isEmpty, values.otherAddresses.isEmpty, values.emails.isEmpty {
                return list.filter { byName[$0.target]?.takesEmail != true }
            }
            guard values.addresses.isEmpty, values.otherAddresses.isEmpty, values.emails.isEmpty, !values.paths.isEmpty else { return list }
            return list.filter { byName[$0.target]?.needsAddress != true }
        }
        var clauses = steps(of: request, accept: matcher.thresholds.accept) { ranked($0).first?.confidence ?? 0 }
        // "write my reminders for tomorrow to F": list them, then write them (`Matcher.listedObject`);
        // files of a kind so in any clause ("把 X 里所有 jpg 文件复制到 Y，再算一下校验和"), not other
        // words ("把标题写入 F" after a list is no list of titles).
        clauses = clauses.flatMap { clause in
            guard let listed = matcher.listedObject(in: FoldedText(clause).text, clock: clock),
                clauses.count == 1 || byName[listed.query]?.takesPath == true
            else { return [clause] }
            return [listed.list, listed.rest]
        }
        // "join their titles into /tmp/t.txt": a query that takes no path, then the write the
        // path asks for; "find the lines with ERROR in /tmp/a.log": the read the path asks for first.
        var parts: [String] = []
        for clause in clauses {
            let best = ranked(clause).first.flatMap { byName[$0.target] }
            let pieces = destinationParts(clause, best: best)
            for part in pieces {
                // (a file the clause before names, "read /tmp/a.log, then find … in /tmp/a.log", is read once)
                if let path = pathRuns(in: part).first, parts.last?.contains(path) == true {
                    parts.append(part)
                    continue
                }
                parts += readParts(part, best: pieces.count == 1 ? best : ranked(part).first.flatMap { byName[$0.target] })
            }
        }
        clauses = parts
        guard clauses.count >= 2 else { return nil }
        let coercion = Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone))
        // The offers of `names` with the date `clause` names fixed in each (`PlanOffer.fixingDates`).
        func dated(_ names: [String], _ clause: String) -> [PlanOffer] {
            let date = datePhrase(in: clause, dates: coercion.dates)
            return names.compactMap { byName[$0] }.map { $0.fixingDates(dates(date, for: $0, coercion: coercion)).fixingAddress(onlyAddress(in: clause)) }
        }
        var slots: [Slot] = []
        var doubts: [Doubt] = []
        let someSure = clauses.contains { (ranked($0).first?.confidence ?? 0) >= matcher.thresholds.accept }
        for clause in clauses {
            let list = ranked(clause)
            let actions = actionParts(of: clause)
            if actions.count > 1 {
                doubts.append(
                    Doubt(clause: clause, reason: "'\(clause)' holds \(actions.count) actions ('\(actions.joined(separator: "', '"))'), more than one step"))
            }
            // "let me know when it's copied", "notify me with the checksum", "通知我": a
            // notification, however the words score ("when it's copied" is no example's) — unless
            // it names a time or a reminder ("ping me Thursday at 2pm with a reminder").
            if CompoundSplitter.asksToBeTold(clause), let notify = byName[notifier],
                datePhrase(in: clause, dates: coercion.dates) == nil, !clause.lowercased().contains("remind"), !clause.contains("提醒")
            {
                slots.append(Slot(clause: clause, offers: [notify.fixingAddress(Self.onlyAddress(in: clause))]))
                continue
            }
            // So is a clause naming a mail address to a target that takes one, when one is among
            // its best matches ("email the summary to ana@example.com": mail.send).
            let mailers = list.prefix(4).map(\.target).filter { byName[$0]?.takesEmail == true }
            if !RequestValues(clause).emails.isEmpty, !mailers.isEmpty {
                slots.append(Slot(clause: clause, offers: mailers.prefix(perClause).compactMap { byName[$0] }))
                continue
            }
            guard let best = list.first, best.confidence >= floor else {
                // Beside a clause the matcher is sure of, a weak one is a doubt, not the end of the skeleton.
                guard someSure, let best = list.first, best.confidence > 0 else { return nil }
                // What "them" are decides, as for a sure clause ("把它们都删了" after notes.list:
                // notes.delete), and leaves no doubt.
                if let kin = slots.last.flatMap({ sameAction(as: best.target, after: $0, clause: clause, among: byName) }) {
                    slots.append(Slot(clause: clause, offers: dated([kin], clause)))
                    continue
                }
                doubts.append(
                    Doubt(
                        clause: clause,
                        reason: "'\(clause)' matches \(best.target) best, at \(RouteDecision.rounded(best.confidence)), under \(floor)"))
                // Its runner-up only when near it: a target at 0.00 beside files.move at 0.24 is noise
                // a small model then adds as a step of its own.
                let near = list.prefix(perClause).filter { $0.confidence >= best.confidence * runnerUpShare }
                slots.append(Slot(clause: clause, offers: dated(near.map(\.target), clause)))
                continue
            }
            if asksToFind(clause), byName[best.target]?.kind == .action,
                let at = list.prefix(4).firstIndex(where: { byName[$0.target]?.kind == .query })
            {
                let query = list[at]
                // A query that ties with it, second ("list the notes tagged ideas": notes.create_many
                // 0.66, notes.list 0.64), takes the clause: a listing is no action.
                if at < 2, query.confidence >= best.confidence * 0.9 {
                    slots.append(Slot(clause: clause, offers: dated([query.target], clause)))
                    continue
                }
                doubts.append(
                    Doubt(
                        clause: clause,
                        reason: "'\(clause)' asks to find or list, but its best match \(best.target) changes something (\(query.target) is a query)"))
            }
            if byName[best.target]?.layer == .playbook, let path = matchedThroughPath(clause, best: best.target, ranked: ranked) {
                doubts.append(
                    Doubt(clause: clause, reason: "'\(clause)' matches playbook \(best.target) only through the path '\(path)'"))
            }
            let runnerUp = list.count > 1 ? list[1].confidence : 0
            let sure =
                best.confidence >= matcher.thresholds.accept
                && best.confidence - runnerUp >= matcher.thresholds.margin
            let taken =
                sure
                ? [best]
                : Array(list.prefix(perClause).filter { $0.confidence >= best.confidence * runnerUpShare })
            var names = taken.map(\.target)
            // "提醒 42 办完了，标记为完成": the action of the clause before said again, with nothing new
            // (no value, number or quoted text), is that step, not a second one.
            if sure, let previous = slots.last, previous.offers.contains(where: { $0.name == best.target }),
                byName[best.target]?.kind == .action, Self.holdsNoValue(clause)
            {
                continue
            }
            if let previous = slots.last, let kin = sameAction(as: best.target, after: previous, clause: clause, among: byName) {
                names = [kin]
            }
            // A web address the clause names goes to a target that takes one: "download https://…"
            // is web.fetch, not the tidy-downloads playbook its words tie with.
            // A query that takes none ("pull the page https://…" read as text.extract, "look up the
            // title of https://…" as files.list) gives way to the best ranked ones that do.
            if !RequestValues(clause).addresses.isEmpty {
                let taking = names.filter { byName[$0]?.takesAddress == true }
                let queries = names.allSatisfy { byName[$0]?.kind == .query }
                let ranking = list.prefix(4).filter { byName[$0.target]?.takesAddress == true }.prefix(perClause).map(\.target)
                if !taking.isEmpty {
                    names = taking
                } else if queries, !ranking.isEmpty {
                    names = ranking
                }
            }
            let fixed = dated(names, clause)
            let hints = sure && names == [best.target] ? texts(best.inputs, of: byName[best.target]) : ValueObject()
            slots.append(Slot(clause: clause, offers: fixed, hints: hints))
        }
        return PlanSkeleton(slots: slots, adapters: offers.filter(\.isAdapter), doubts: doubts)
    }

    /// The skill a clause that asks to be told (`CompoundSplitter.asksToBeTold`) goes to.
    static let notifier = "notify.send"

    /// The web address a clause names as where to send something, when it names one: right after
    /// "webhook", "hook", "through", "via", "to", "on", 往, 到, 通过 ("notify the ops webhook URL",
    /// "send the list to my phone through URL", "往 URL 推一条通知"). An address the clause is about
    /// ("tell me whether URL is up", "notify me with the link URL") is none.
    static func onlyAddress(in clause: String) -> String? {
        let addresses = RequestValues(clause).addresses
        guard addresses.count == 1, let address = addresses.first, let range = clause.range(of: address) else { return nil }
        let before = clause[..<range.lowerBound].lowercased().trimmingCharacters(in: .whitespaces)
        let english = before.split(whereSeparator: { !$0.isLetter }).last.map(String.init) ?? ""
        let marks = ["webhook", "hook", "through", "via", "to", "on"]
        return marks.contains(english) || ["往", "到", "通过"].contains(where: before.hasSuffix) ? address : nil
    }

    /// For a clause that refers back to the step before ("delete them", "删除它们"), whose best
    /// match acts on existing items (`itemActions`) and is of another family than that step's targets (files.delete after notes.list), the
    /// same action of the step's family (notes.delete), when there is one: what "them" are decides
    /// which skill deletes them, not the words of the clause alone.
    static func sameAction(as best: String, after previous: Slot, clause: String, among byName: [String: PlanOffer]) -> String? {
        guard refersBack(clause), let dot = best.lastIndex(of: "."), itemActions.contains(String(best[best.index(after: dot)...])) else {
            return nil
        }
        let action = best[dot...]
        let family = best[..<dot]
        let families = previous.names.compactMap { name in name.lastIndex(of: ".").map { String(name[..<$0]) } }
        guard !families.isEmpty, !families.contains(String(family)) else { return nil }
        return families.lazy.map { $0 + action }.first { byName[$0] != nil }
    }

    /// The captured `inputs` of `offer`'s labels (`isLabel`: a reminder's or note's title) that do
    /// not point back ("read it"), for a slot's hints. Paths and addresses the model copies from the
    /// clause anyway; a captured content ("their titles") or pattern ("log" for ".log files") is
    /// words of the request, not the value.
    static func isLabel(_ schema: Schema) -> Bool {
        schema.type == .string && schema.format == nil && schema.enumValues == nil && schema.pattern == nil
            && (schema.maxLength ?? .max) <= 200
    }

    /// Hints for a slot: see `isLabel`.
    static func texts(_ inputs: ValueObject, of offer: PlanOffer?) -> ValueObject {
        guard let offer else { return ValueObject() }
        return ValueObject(
            inputs.filter { name, value in
                // "read it" names what an earlier step gives, "读" is a verb left over: no label.
                guard let text = value.stringValue, text.count >= 3, !refersBack(text), let schema = offer.parameters.property(name) else {
                    return false
                }
                return isLabel(schema)
            }.map { ($0.key, $0.value) })
    }

    /// Actions done to items that already exist, which each family has its own skill for (a note
    /// is deleted by notes.delete); "save them" makes something new, of any family.
    static let itemActions: Set<String> = ["delete", "complete", "move", "copy"]

    /// Whether `clause` names its object by a word that points back ("them", "it", "这些", "它们").
    static func refersBack(_ clause: String) -> Bool {
        let words = Set(clause.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
        if !words.isDisjoint(with: ["them", "it", "these", "those", "they", "each"]) { return true }
        return ["它们", "它", "这些", "那些"].contains(where: clause.contains)
    }

    /// Words that ask to find or list things: a step for them is a query.
    static let findingWords: Set<String> = ["find", "list", "show", "search", "look", "locate", "which", "what", "where"]
    static let findingPrefixes = ["找", "查找", "搜索", "列出", "查", "看看", "哪些"]

    /// Whether `clause` asks to find or list ("find the .log files in /tmp/x", "找出…").
    static func asksToFind(_ clause: String) -> Bool {
        let words = clause.lowercased().split(whereSeparator: { !$0.isLetter })
        if let first = words.first(where: { !["please", "just", "then", "also", "first", "me"].contains($0) }),
            findingWords.contains(String(first))
        {
            return true
        }
        let text = clause.trimmingCharacters(in: .whitespaces)
        let body = ["请", "帮我", "先"].reduce(text) { $0.hasPrefix($1) ? String($0.dropFirst($1.count)) : $0 }
        return findingPrefixes.contains(where: body.hasPrefix)
    }

    /// The clauses of `request` as steps: its clauses ("… and then …", "…然后…"), and a clause
    /// "a, b" as two when each comma part reaches `accept` (`best` is a part's best confidence) or
    /// when it holds parts that each start an action of their own and each reach it ("read
    /// /tmp/a.log, find the lines with ERROR": a step each, not one clause of two actions). The
    /// skeleton, the offers and the targets a plan must use read a request the same way.
    /// A piece the splitter cut off that no target reaches `accept` for and that is only more of
    /// the clause before it — it starts with a path or an address ("copy /tmp/a and /tmp/b into
    /// it") or is a word or two with no verb ("a note called Groceries with milk and eggs") — goes
    /// on that clause: it is not a step.
    static func steps(of request: String, accept: Double, best: (String) -> Double) -> [String] {
        var clauses: [String] = []
        for clause in joiningObjects(CompoundSplitter.clauses(of: request), accept: accept, best: best) {
            let parts = CompoundSplitter.commaParts(clause).map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            if parts.count > 1, parts.allSatisfy({ best($0) >= accept }) {
                clauses += parts
                continue
            }
            let actions = actionParts(of: clause).flatMap(downloadParts)
            let split = actions.count > 1 && actions.allSatisfy { best($0) >= accept }
            clauses += split ? actions : [clause]
        }
        return clauses
    }

    /// `clauses` with each piece that only goes on the one before it joined to it (see `steps`).
    static func joiningObjects(_ clauses: [String], accept: Double, best: (String) -> Double) -> [String] {
        var joined: [String] = []
        for clause in clauses {
            if let last = joined.last, isMoreObjects(clause), best(clause) < accept {
                joined[joined.count - 1] = last + (clause.contains(where: TextFolding.isCJK) ? "，" : " and ") + clause
            } else {
                joined.append(clause)
            }
        }
        return joined
    }

    /// Whether a piece is only objects: it starts with a path or an address, or is one or two
    /// words (not Chinese) without a verb.
    static func isMoreObjects(_ piece: String) -> Bool {
        let text = piece.trimmingCharacters(in: .whitespaces)
        if ["/", "~/", "./", "../", "http://", "https://"].contains(where: text.hasPrefix) { return true }
        let words = text.split(separator: " ")
        return !text.contains(where: TextFolding.isCJK) && words.count <= 2 && !CompoundSplitter.startsWithVerb(text)
    }

    /// The actions of a clause: its comma-separated parts, a part that starts with a verb of its
    /// own (`CompoundSplitter.startsWithVerb`) beginning another ("find the logs, move them to
    /// /tmp/old" is two).
    static func actionParts(of clause: String) -> [String] {
        var actions: [String] = []
        for part in CompoundSplitter.commaParts(clause).map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            if actions.isEmpty || CompoundSplitter.startsWithVerb(part) {
                actions.append(part)
            } else {
                actions[actions.count - 1] += ", " + part
            }
        }
        return actions
    }

    /// A download into a file is two actions, since fetching an address writes no file: "download
    /// https://x/a.txt into /tmp/a.txt" is "download https://x/a.txt" and "save it to /tmp/a.txt",
    /// "下载 https://x/a.txt 到 /tmp/a.txt" is "下载 https://x/a.txt" and "保存到 /tmp/a.txt". Any other
    /// action is itself.
    /// So is saving an address into a file ("save the text of https://x/a.txt to /tmp/a.txt", "把
    /// https://x/a.txt 保存到 /tmp/a.txt"): "download https://x/a.txt", then the save.
    static func downloadParts(_ action: String) -> [String] {
        let lowered = action.lowercased()
        let verbs = ["download ", "fetch ", "grab ", "get ", "下载", "抓取", "获取"]
        let saves = ["save ", "store ", "copy ", "把", "将", "保存"]
        let downloads = verbs.contains(where: lowered.hasPrefix)
        guard downloads || saves.contains(where: lowered.hasPrefix),
            let address = RequestValues(action).addresses.first, let range = action.range(of: address)
        else { return [action] }
        let rest = action[range.upperBound...].trimmingCharacters(in: .whitespaces)
        let chinese = action.contains(where: TextFolding.isCJK)
        for (word, save) in [("into ", "save it to "), ("to ", "save it to "), ("as ", "save it to "), ("保存到", "保存到 "), ("存到", "保存到 "), ("到", "保存到 ")]
        where rest.lowercased().hasPrefix(word) {
            let destination = rest.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
            guard TextFolding.pathStarts.contains(where: destination.hasPrefix) else { return [action] }
            let fetch = downloads ? String(action[..<range.upperBound]) : (chinese ? "下载 " : "download ") + address
            return [fetch, save + destination]
        }
        return [action]
    }

    /// A clause whose best target is a query that takes no path ("join their titles into
    /// /tmp/t.txt", "按大小排序后保存到 /tmp/m.txt") but that ends by naming where to put its result:
    /// the clause before the destination, then "save it to PATH" ("保存到 PATH"). Any other clause
    /// is itself.
    /// So is a query's clause that ends by naming a note ("summarise URL into a note, tag it
    /// reading", "把 URL 总结成笔记"): the clause before, then "save it as a note" and what follows.
    static func destinationParts(_ clause: String, best: PlanOffer?) -> [String] {
        guard let best, best.kind == .query else { return [clause] }
        for phrase in [" into a note", " as a note", " in a note", "成笔记", "为笔记", "成一条笔记"] {
            guard let range = clause.range(of: phrase, options: .caseInsensitive) else { continue }
            let head = clause[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            guard !head.isEmpty else { break }
            let chinese = phrase.contains(where: TextFolding.isCJK)
            return [head, (chinese ? "保存为笔记" : "save it as a note") + clause[range.upperBound...]]
        }
        guard !best.takesPath, let path = pathRuns(in: clause).last else { return [clause] }
        let trimmed = clause.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters).subtracting(["/", "~", "."]))
        guard trimmed.hasSuffix(path) else { return [clause] }
        let before = String(trimmed.dropLast(path.count)).trimmingCharacters(in: .whitespaces)
        let lowered = before.lowercased()
        for word in ["保存到", "写入", "写到", "写进", "存到", "到", " into", " to"] where lowered.hasSuffix(word) {
            let head = String(before.dropLast(word.count)).trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "，,")))
            let verb = ["然后", "后", "并", " and then", " then", " and"].first { head.lowercased().hasSuffix($0) }
            let action = String(head.dropLast(verb?.count ?? 0)).trimmingCharacters(in: .whitespaces)
            guard !action.isEmpty else { return [clause] }
            return [action, (word.hasPrefix(" ") ? "save it to " : "保存到 ") + path]
        }
        return [clause]
    }

    /// A clause whose best target is a query that takes a text and no path, naming a file to find
    /// things in ("find the lines with ERROR in /tmp/a.log", "从 /tmp/日志.txt 中找出…"): "read PATH"
    /// ("读取 PATH") first, then the clause. Any other clause is itself.
    /// So is a clause whose best target is an action that takes a text and no path, naming a file
    /// as where its text comes from ("email bob@… the contents of /tmp/s.txt", "POST the JSON in
    /// /tmp/e.json to URL", "把 /tmp/a.txt 的内容发给 …"): the path after "of", "in" or "from", or
    /// before 的内容.
    static func readParts(_ clause: String, best: PlanOffer?) -> [String] {
        guard let best, best.takesTextContent, let path = pathRuns(in: clause).first, !path.hasSuffix("/") else { return [clause] }
        switch best.kind {
        case .query:
            guard !best.takesPath, !best.takesAddress else { return [clause] }
        case .action:
            guard !best.needsPath, namesASource(path, in: clause) else { return [clause] }
        }
        let chinese = clause.contains(where: TextFolding.isCJK)
        return [(chinese ? "读取 " : "read ") + path, clause]
    }

    /// Whether `clause` names no path, address, number or quoted text.
    static func holdsNoValue(_ clause: String) -> Bool {
        let values = RequestValues(clause)
        return values.paths.isEmpty && values.addresses.isEmpty && values.otherAddresses.isEmpty && values.emails.isEmpty
            && !clause.contains(where: { $0.isNumber || "\"“”「」'".contains($0) })
    }

    /// Whether `clause` says `path` is where a text comes from: "of PATH", "in PATH", "from PATH",
    /// "PATH 的内容", "PATH 里的内容".
    static func namesASource(_ path: String, in clause: String) -> Bool {
        guard let range = clause.range(of: path) else { return false }
        let before = clause[..<range.lowerBound].lowercased().trimmingCharacters(in: .whitespaces)
        let after = clause[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return [" of", " in", " from"].contains(where: { (" " + before).hasSuffix($0) })
            || ["的内容", "里的内容", "中的内容", "里面的内容", "的文本"].contains(where: after.hasPrefix)
    }

    /// The path or address of `clause` without which `best` is no longer its best match: a word
    /// inside it ("/tmp/日记") matched the target's trigger, not what the clause asks.
    static func matchedThroughPath(_ clause: String, best: String, ranked: (String) -> [RouteCandidate]) -> String? {
        for value in pathRuns(in: clause) + RequestValues(clause).addresses {
            let without = clause.replacingOccurrences(of: value, with: " ")
            if ranked(without).first?.target != best { return value }
        }
        return nil
    }

    /// The paths of `clause` as written, going on in Chinese (`看看/tmp/日记`: `/tmp/日记`): from a `/`,
    /// `~/`, `./` or `../` after a space, a Chinese character or the start, to a space or punctuation.
    static func pathRuns(in clause: String) -> [String] {
        let chars = Array(clause)
        let stops: Set<Character> = ["，", "。", "、", "；", "：", ",", ";", "!", "?", "！", "？", "(", ")", "（", "）", "\"", "'"]
        var runs: [String] = []
        var i = 0
        while i < chars.count {
            let rest = String(chars[i...].prefix(3))
            let before = i == 0 ? nil : chars[i - 1]
            let opens = before.map { $0.isWhitespace || TextFolding.isCJK($0) } ?? true
            if opens, ["/", "~/", "./", "../"].contains(where: rest.hasPrefix), rest != "/" || chars.count > i + 1 {
                var end = i
                while end < chars.count, !chars[end].isWhitespace, !stops.contains(chars[end]) { end += 1 }
                runs.append(String(chars[i..<end]))
                i = end
            } else {
                i += 1
            }
        }
        return runs
    }

    /// Which side of a date a clause asks for: "before Friday", "until 5pm", "周五之前" (`before`);
    /// "after Friday", "since Monday", "周五之后" (`after`).
    enum DateBound: Sendable {
        case before, after
    }

    /// The longest phrase of `clause` the shared date parser reads ("tomorrow at 9am", "明天"),
    /// over its words and Chinese characters, with whether it has a time of day and whether it is
    /// a bound ("before next Friday", "下周五之前"); `nil` for "now" and for "by Friday" (its end
    /// or its start?).
    static func datePhrase(in clause: String, dates: DateParser) -> (text: String, hasTime: Bool, bound: DateBound?)? {
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
        if before == "by" { return nil }
        if ["before", "until", "till"].contains(before) || ["之前", "以前"].contains(where: after.hasPrefix) {
            return (best.text, best.hasTime, .before)
        }
        if ["after", "since"].contains(before) || ["之后", "以后"].contains(where: after.hasPrefix) {
            return (best.text, best.hasTime, .after)
        }
        return (best.text, best.hasTime, nil)
    }

    /// Whether parameter `name` is a bound of a date (`due_before`, `created_after`): it takes a
    /// date the clause names only as that bound, and a bound only it takes.
    static func bound(of name: String) -> DateBound? {
        let words = name.lowercased().split(separator: "_")
        if words.contains(where: { ["before", "until"].contains($0) }) { return .before }
        if words.contains(where: { ["after", "since"].contains($0) }) { return .after }
        return nil
    }

    /// `phrase` as the value of each of `offer`'s date parameters it fits: a phrase with a time
    /// fills the date-time ones, one without the date ones (`list my reminders for tomorrow`
    /// fills `due_on`, not `due_before`); a bound fills only the parameters of that bound
    /// (`… due before next Friday` fills `due_before` with 2026-12-04T00:00, and `fixingDates`
    /// leaves `due_on` out).
    static func dates(_ phrase: (text: String, hasTime: Bool, bound: DateBound?)?, for offer: PlanOffer, coercion: Coercion) -> ValueObject {
        guard let phrase else { return [:] }
        var values: ValueObject = [:]
        for (name, schema) in offer.parameters.properties where bound(of: name) == phrase.bound {
            // A bound is a point in time whatever the phrase holds ("before next Friday" is its
            // start); a date itself goes to the parameter of its kind (a day, or a day and time).
            if phrase.bound == nil, schema.format != (phrase.hasTime ? "date-time" : "date") { continue }
            if phrase.bound != nil, schema.format != "date-time", schema.format != "date" { continue }
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
            slots: slots.map { slot in Slot(clause: slot.clause, offers: slot.offers.map { $0.trimmed(for: slot.clause ?? request) }, hints: slot.hints) },
            adapters: adapters.map { $0.trimmed(for: request) }, doubts: doubts)
    }
}
