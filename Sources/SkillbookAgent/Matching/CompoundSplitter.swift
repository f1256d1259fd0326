import Foundation

/// Splits a request into clauses where it chains actions: "…, then …", "… and then …", "… after that …", "… and …",
/// "…? …", "…然后…", "…接着…", "…再…", "…并且…", and a comma in Chinese text. Whether the result is really
/// plan-shaped is decided by the matcher (each clause must be taken by a different target), so a
/// split in the middle of a title ("bread and milk") does no harm.
enum CompoundSplitter {
    static let english = [
        ", and then ", " and then ", ", and after that ", " and after that ", ", after that ", " after that ", ", afterwards ",
        " afterwards ", ", then ", " then ", "; ", "? ", " and also ", ", plus ", ", and ", " and ",
    ]
    static let chinese = ["然后", "接着", "之后", "以后", "并且", "再把", "再", "并", "顺便", "顺手"]

    /// Verbs that start an action of their own after "and", "then" or a comma.
    static let verbs: Set<String> = [
        "save", "send", "notify", "email", "mail", "text", "tell", "share", "upload", "post", "print", "delete",
        "remove", "move", "copy", "list", "show", "read", "write", "create", "add", "summarize", "summarise",
        "fetch", "download", "archive", "pack", "compress", "back", "backup", "tidy", "remind", "translate", "open",
        "run", "put", "store", "append", "mark", "sort", "filter", "extract", "join", "check", "make",
        "find", "pull", "get", "compute", "calculate", "count", "search", "look", "grab", "zip",
    ]

    /// Chinese verbs (and 把/将, which put the object before the verb) that start an action of
    /// their own after 然后, 再 or a comma: "…然后把 X 移进去", "…，再写入 X", "先下载 X 再…".
    static let chineseVerbs = [
        "把", "将", "保存", "存到", "写入", "写到", "追加", "复制", "移动", "删除", "列出", "读取", "下载", "总结", "提醒",
        "通知", "发", "打包", "压缩", "创建", "新建", "查看", "计算", "找出", "备份", "整理", "获取",
        "提取", "查找", "搜索", "看看", "查一下", "查询", "统计", "算", "挪", "标记", "运行", "执行", "记下", "记录",
        "建", "写", "列", "发送", "上传", "检查", "拷贝", "设置", "往", "推", "弹", "跑", "清",
    ]

    /// Whether a clause starts with one of `verbs` (after "then", "also" or "please"), or with one
    /// of `chineseVerbs` (after 请 or 帮我).
    static func startsWithVerb(_ clause: String) -> Bool {
        var chinese = Substring(clause.trimmingCharacters(in: .whitespaces))
        for filler in ["请", "帮我"] + TextFolding.chineseLeading where chinese.hasPrefix(filler) { chinese = chinese.dropFirst(filler.count) }
        // ("跑完把输出写到 F", "删完弹个通知": the step before done, then this one)
        if chinese.count > 2, let first = chinese.first, TextFolding.isCJK(first), ["完", "好"].contains(chinese.dropFirst().first) {
            chinese = chinese.dropFirst(2)
        }
        if chineseVerbs.contains(where: { chinese.hasPrefix($0) }) { return true }
        let words = clause.lowercased().split(whereSeparator: { !$0.isLetter })
        guard let first = words.first(where: { !["then", "also", "please", "just", "first", "finally", "afterwards"].contains($0) }) else {
            return false
        }
        return verbs.contains(String(first))
    }

    /// Whether a clause is an action addressed to the person asking ("tell me when it's saved",
    /// "let me know", "通知我…"): never the tail of a captured text, as "tell her" in "remind me to
    /// call Anna and tell her" is.
    static func addressesUser(_ clause: String) -> Bool {
        addressed(clause, english: ["tell", "notify", "ping", "message", "text", "email", "alert", "let"], chinese: ["通知我", "告诉我", "发通知给我", "发个通知", "提醒我"])
    }

    /// Whether a clause asks for a notification: "notify me …", "tell me …", "let me know …",
    /// "ping me", "alert me", "通知我", "告诉我", "发通知给我".
    static func asksToBeTold(_ clause: String) -> Bool {
        addressed(clause, english: ["tell", "notify", "ping", "alert", "let"], chinese: ["通知我", "告诉我", "发通知给我", "发个通知"])
    }

    /// Whether a clause asks to be shown or told something: "tell me how big X is", "show me …",
    /// "how much room does X take?", "看一下 X 的状态", "X 有哪些没提交的改动？".
    static func asksToBeShown(_ clause: String) -> Bool {
        if asksToBeTold(clause) { return true }
        let trimmed = clause.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("?") || trimmed.hasSuffix("？") || trimmed.hasSuffix("吗") { return true }
        var chinese = Substring(trimmed)
        for filler in ["请", "帮我", "先", "首先"] where chinese.hasPrefix(filler) { chinese = chinese.dropFirst(filler.count) }
        if ["看一下", "看看", "给我看", "查看", "显示"].contains(where: { chinese.hasPrefix($0) }) { return true }
        let words = trimmed.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init)
        guard let start = words.firstIndex(where: { !["first", "then", "please", "can", "could", "you", "just"].contains($0) }) else { return false }
        if ["what", "what's", "whats", "how", "which", "who", "where"].contains(words[start]) { return true }
        return start + 1 < words.count && ["show", "tell", "give"].contains(words[start]) && words[start + 1] == "me"
    }

    /// Whether a clause starts (after "then", "please", 请, 再, 并…) with one of `chinese`, or with
    /// one of `english` followed by "me".
    private static func addressed(_ clause: String, english: Set<String>, chinese starts: [String]) -> Bool {
        var chinese = Substring(clause.trimmingCharacters(in: .whitespaces))
        for filler in ["请", "再", "并", "最后", "然后"] where chinese.hasPrefix(filler) { chinese = chinese.dropFirst(filler.count) }
        if starts.contains(where: { chinese.hasPrefix($0) }) { return true }
        let words = clause.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        guard let start = words.firstIndex(where: { !["then", "also", "please", "just", "finally", "afterwards", "and"].contains($0) }),
            start + 1 < words.count
        else { return false }
        return english.contains(words[start]) && words[start + 1] == "me"
    }

    /// Whether `clause` comes in `request` right after a word of order ("…, then X", "…，完了以后X",
    /// "…然后X"): an action after the one before, never the tail of its captured text (as "tell
    /// her" in "remind me to call Anna and tell her" is).
    static func followsOrderWord(_ clause: String, in request: String) -> Bool {
        guard let range = request.range(of: clause) else { return false }
        let before = request[..<range.lowerBound].lowercased().trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ",，")))
        return ["then", "after that", "afterwards", "然后", "以后", "之后", "接着", "再"].contains(where: before.hasSuffix)
    }

    /// `text` split at ", " outside quotes: "write a.md with the text 'milk, eggs, bread', and …"
    /// keeps the quoted list whole. A quote is "…", “…”, or '…' opened after a space (an
    /// apostrophe, as in "it's", opens nothing).
    static func commaParts(_ text: String) -> [String] {
        let characters = Array(text)
        // (an unclosed quote splits as if there were none)
        guard let places = TextFolding.quotePlaces(characters) else { return text.components(separatedBy: ", ") }
        var parts: [String] = []
        var current = ""
        var i = 0
        while i < characters.count {
            if characters[i] == ",", places[i] == .outside, i + 1 < characters.count, characters[i + 1] == " " {
                parts.append(current)
                current = ""
                i += 2
                continue
            }
            current.append(characters[i])
            i += 1
        }
        parts.append(current)
        return parts
    }

    /// Words that hold a marker without chaining anything: "合并" (join) is no "…并…".
    static let unsplit = ["合并", "再次", "不再"]

    /// What a piece starts with when it only says more about the one before ("…保存为笔记，标签为
    /// quotes", "…, titled Week"): it stays part of that clause.
    static let attributes = [
        "标签", "标题为", "标题是", "标题叫", "标题“", "标题\"", "标题 ", "标题：", "标题:", "名字叫", "名为", "内容为", "内容是", "服务器", "用服务器", "通过服务器", "邮件服务器", "主题",
        "发件人", "收件人", "寄件人", "抄送", "走 smtp", "走smtp", "smtp", "use smtp", "using smtp", "titled ", "called ",
        "tagged ", "tag it ", "subject ", "server ", "via ", "from ", "sender ", "overwriting ", "with the title ",
        "with the tag ", "with subject ", "send it from ", "send them from ", "超时",
    ]

    static func clauses(of request: String) -> [String] {
        recentClauses.answer(request, splitClauses)
    }

    private static let recentClauses = RecentAnswers<[String]>()

    private static func splitClauses(_ request: String) -> [String] {
        // "organise /tmp/desk: make /tmp/desk/images and move /tmp/desk/a.png into it": the words
        // before the colon name what the actions after it do together; the actions are the clauses.
        if let colon = request.range(of: ": ") ?? request.range(of: "："), startsWithVerb(String(request[colon.upperBound...])) {
            let after = clauses(of: String(request[colon.upperBound...]))
            if after.count >= 2 { return after }
        }
        var pieces = afterGerund(request) ?? afterPerfect(request) ?? [request]
        for marker in english {
            pieces = pieces.flatMap { split($0, at: marker) }
        }
        if request.contains(where: TextFolding.isCJK) {
            // (a question or a sentence ends a clause: "明天有哪些提醒？整理成一条笔记")
            for marker in chinese + [",", "，", "?", "？", "!", "！", "。", ";", "；"] {
                pieces = pieces.flatMap { split($0, at: marker) }
            }
        }
        var clauses: [String] = []
        if let first = pieces.first { pieces[0] = withoutGreeting(first) }
        for piece in pieces.map({ $0.trimmingCharacters(in: .whitespaces) }) where !piece.isEmpty && !isFillerAlone(piece) {
            if let last = clauses.last, attributes.contains(where: { piece.lowercased().hasPrefix($0) }) {
                clauses[clauses.count - 1] = last + (piece.contains(where: TextFolding.isCJK) ? "，" : ", ") + piece
            } else {
                clauses.append(piece)
            }
        }
        return clauses
    }

    /// `piece` without a greeting and the punctuation after it at its start ("Hiya — make a
    /// folder …" is "make a folder …").
    static func withoutGreeting(_ piece: String) -> String {
        let trimmed = Array(piece.trimmingCharacters(in: .whitespaces))
        let lower = Array(String(trimmed).lowercased())
        // (the greeting's end is an index into both only when lower-casing kept the count)
        guard lower.count == trimmed.count, let end = TextFolding.greetingEnd(lower) else { return piece }
        let body = trimmed[end...].drop { TextFolding.edgePunctuation.contains($0) }
        return body.isEmpty ? piece : String(body)
    }

    /// A piece that is only a filler or a greeting ("嗯", "ok so", "早上好"), or says only that the
    /// action before is done ("设好之后…", "弄完以后…": 设好, 弄完): no clause of its own.
    static func isFillerAlone(_ piece: String) -> Bool {
        var bare = piece.lowercased().trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        // ("完了以后…", "弄好了之后…": 了 says it is done)
        if bare.count >= 2, bare.last == "了", bare.dropLast().allSatisfy(TextFolding.isCJK) { bare.removeLast() }
        if (1...3).contains(bare.count), bare.allSatisfy(TextFolding.isCJK), bare.last == "好" || bare.last == "完" { return true }
        return (TextFolding.chineseLeading + TextFolding.leadingFillers + TextFolding.greetings).contains(bare)
    }

    /// "delete the notes tagged scratch after listing them": the action after "after", said with
    /// its verb ("list them"), then the one before — when the word after "after" is a verb of
    /// `verbs` with "ing" (listing, saving, making).
    static func afterGerund(_ request: String) -> [String]? {
        guard let range = request.range(of: " after ", options: .caseInsensitive) else { return nil }
        let tail = request[range.upperBound...]
        guard let first = tail.split(separator: " ").first.map({ $0.lowercased() }), first.hasSuffix("ing"), first.count > 5 else { return nil }
        let stem = String(first.dropLast(3))
        let doubled = stem.count > 2 && stem.last == stem.dropLast().last ? String(stem.dropLast()) : nil
        guard let verb = [stem, stem + "e", doubled].compactMap({ $0 }).first(where: verbs.contains) else { return nil }
        let head = request[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        guard startsWithVerb(head) else { return nil }
        let rest = tail.dropFirst(first.count).trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        // "… after listing them": what "them" are is the object of the action before.
        if ["them", "it", "those", "these"].contains(rest.lowercased()), let space = head.firstIndex(of: " ") {
            return [verb + head[space...], head[..<space] + " " + rest]
        }
        return [verb + tail.dropFirst(first.count), head]
    }

    /// "after you've fetched X, write it to F": the action after "after you've" (or "once you
    /// have", "when you've"), said with its verb ("fetch X"), then the one after the comma — when
    /// the word after it is a verb of `verbs` in its past form.
    static func afterPerfect(_ request: String) -> [String]? {
        let lower = request.lowercased()
        let openings = ["after you've ", "after you have ", "once you've ", "once you have ", "when you've ", "when you have "]
        guard let opening = openings.first(where: lower.hasPrefix),
            let comma = request.range(of: ", "), comma.lowerBound > request.index(request.startIndex, offsetBy: opening.count)
        else { return nil }
        let head = request[request.index(request.startIndex, offsetBy: opening.count)..<comma.lowerBound]
        guard let first = head.split(separator: " ").first.map({ $0.lowercased() }), let verb = presentForm(of: first) else { return nil }
        let tail = request[comma.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !tail.isEmpty else { return nil }
        return [verb + head.dropFirst(first.count), tail]
    }

    /// `fetched` → `fetch`, `saved` → `save`, `copied` → `copy`, `made` → `make`: a past form of
    /// one of `verbs`, else `nil`.
    static func presentForm(of word: String) -> String? {
        let irregular = ["made": "make", "written": "write", "wrote": "write", "read": "read", "sent": "send", "got": "get", "found": "find", "put": "put", "run": "run", "ran": "run"]
        if let verb = irregular[word] { return verb }
        guard word.hasSuffix("ed"), word.count > 4 else { return nil }
        let stem = String(word.dropLast(2))
        let candidates = [stem, stem + "e", stem.hasSuffix("i") ? String(stem.dropLast()) + "y" : nil, stem.count > 2 && stem.last == stem.dropLast().last ? String(stem.dropLast()) : nil]
        return candidates.compactMap { $0 }.first(where: verbs.contains)
    }

    /// Splits at `marker` without regard to case.
    /// Splits at `marker` without regard to case, never inside one of `unsplit`.
    private static func split(_ text: String, at marker: String) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        var from = rest.startIndex
        while let range = rest.range(of: marker, options: .caseInsensitive, range: from..<rest.endIndex) {
            // (never inside parentheses: "into a note (title, description, first paragraph)")
            if unsplit.contains(where: { word in Self.holds(rest, word, around: range) }) || insideParentheses(rest, range.lowerBound)
                || Self.endsTimePhrase(marker, before: rest[..<range.lowerBound])
            {
                from = range.upperBound
                continue
            }
            out.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
            from = rest.startIndex
        }
        out.append(String(rest))
        return out
    }

    /// Whether 以后/之后 ends a time phrase ("三天以后提醒我", "明天以后的会议", "两个小时之后") rather than
    /// chaining a step: the text before it ends in a unit of time or a day's name.
    private static func endsTimePhrase(_ marker: String, before: Substring) -> Bool {
        guard marker == "以后" || marker == "之后" else { return false }
        let text = before.trimmingCharacters(in: .whitespaces)
        return ["天", "小时", "钟", "点", "周", "星期", "礼拜", "月", "年", "号", "日", "下班", "午饭", "晚饭", "会"].contains(where: text.hasSuffix)
    }

    /// Whether `index` of `text` is inside an open `(` or `（` not yet closed.
    private static func insideParentheses(_ text: Substring, _ index: Substring.Index) -> Bool {
        var depth = 0
        for c in text[..<index] {
            if c == "(" || c == "（" { depth += 1 } else if c == ")" || c == "）", depth > 0 { depth -= 1 }
        }
        return depth > 0
    }

    /// Whether `word` is written in `text` over `range` (the marker found there is part of it).
    private static func holds(_ text: Substring, _ word: String, around range: Range<Substring.Index>) -> Bool {
        var start = range.lowerBound
        for _ in 0..<word.count where start > text.startIndex { start = text.index(before: start) }
        let window = text[start..<(text.index(range.upperBound, offsetBy: word.count, limitedBy: text.endIndex) ?? text.endIndex)]
        guard let found = window.range(of: word) else { return false }
        return found.lowerBound <= range.lowerBound && found.upperBound >= range.upperBound
    }
}
