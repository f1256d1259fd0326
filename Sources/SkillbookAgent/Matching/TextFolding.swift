import Foundation

/// How the matcher reads text: width- and case-folded characters, filler words, and the tokens
/// scored beyond exact patterns (words of Latin text, character unigrams and bigrams of Chinese).
enum TextFolding {
    /// Full-width ASCII (`Ａ`, `１`, `？`) becomes ASCII, the ideographic space a space, and Chinese
    /// punctuation its ASCII twin; everything else is kept.
    static func foldWidth(_ c: Character) -> Character {
        guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return c }
        switch scalar.value {
        case 0xFF01...0xFF5E: return Character(Unicode.Scalar(scalar.value - 0xFEE0)!)
        case 0x3000: return " "
        case 0x3001: return ","  // 、
        case 0x3002: return "."  // 。
        case 0x201C, 0x201D, 0x300C, 0x300D: return "\""
        case 0x2018, 0x2019: return "'"
        default: return c
        }
    }

    /// The lower-case form of one character, when it stays one character.
    static func lower(_ c: Character) -> Character {
        let lowered = String(c).lowercased()
        return lowered.count == 1 ? Character(lowered) : c
    }

    /// Whether a character is a CJK ideograph (the ones scored as unigrams and bigrams).
    static func isCJK(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value else { return false }
        return (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0xF900...0xFAFF).contains(v)
    }

    static func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter && !isCJK(c) || c.isNumber || c == "_" || c == "'"
    }

    /// Punctuation trimmed from the ends of a request and of captured text.
    static let edgePunctuation: Set<Character> = [
        " ", ",", ".", "!", "?", ";", ":", "\"", "'", "(", ")", "…", "《", "》", "：", "；", "—", "–",
    ]

    /// English fillers dropped from the start of a request or a capture ("please remind me…").
    static let leadingFillers = [
        "please", "pls", "kindly", "hey", "can you", "could you", "would you", "will you", "i want to", "i'd like to",
        "i would like to", "i need to", "help me", "go ahead and", "just", "ok so", "okay so", "so",
    ]
    /// Words of order dropped at the start of a request or clause, never of a captured text ("first
    /// day of school" stays a title): "first make the folder X", "finally notify me".
    static let leadingOrder = [
        "first", "finally", "afterwards", "after that", "once that's done", "once that is done", "once done", "when that's done",
        "when that's finished", "once that's finished", "when done",
    ]
    /// English fillers dropped from the end ("…for me please").
    static let trailingFillers = ["please", "for me", "thanks", "thank you", "now", "right now", "pls"]
    /// Chinese fillers: dropped wherever they stand (they carry no meaning for routing).
    static let chineseFillers = ["一下", "麻烦你", "麻烦", "帮我", "帮忙", "请你", "请", "给我", "好吗", "好不好", "谢谢", "可以吗"]
    /// "All" said before a verb (`都移动到`, `全部删掉`), dropped there only: 都 is part of 首都 and 成都.
    static let chineseAllAdverbs = ["全都", "全部", "都"]
    static let chineseAllVerbs = ["移动", "移到", "移进", "复制", "拷贝", "删除", "删掉", "删了", "放到", "放进", "打包", "压缩", "发给", "写到", "写入", "保存", "挪到", "挪进"]
    /// Chinese words of order dropped at the start of a request or clause ("先下载 X", "最后通知我"),
    /// never of a captured text ("先生的生日" stays a title).
    static let chineseLeading = ["首先", "先", "最后", "接着", "然后", "再", "顺便", "顺手", "另外", "同时", "还要", "嗯", "呃", "额", "那个"]
    /// Chinese particles dropped at the end.
    static let chineseTrailing: Set<Character> = ["吧", "呢", "啊", "呀", "哦", "嘛", "了"]

    /// Greetings dropped before a request when punctuation follows them; a request that is only one
    /// of them is refused. Longer ones first.
    static let greetings = [
        "good morning", "good afternoon", "good evening", "hello there", "hi there", "hey there", "hello", "hiya", "hi",
        "morning", "早上好", "上午好", "中午好", "下午好", "晚上好", "早安", "晚安", "您好", "你好", "哈喽", "嗨",
    ]

    /// Where the punctuation after a greeting that starts `lower` (lower-case characters) stands
    /// ("good morning! …", "hiya — …", "你好，…"); `nil` when it starts with none, or one that no
    /// punctuation follows.
    static func greetingEnd(_ lower: [Character]) -> Int? {
        for greeting in greetings {
            let needle = Array(greeting)
            guard lower.count > needle.count, lower[0..<needle.count].elementsEqual(needle) else { continue }
            var end = needle.count
            while end < lower.count, lower[end] == " " { end += 1 }
            guard end < lower.count, edgePunctuation.contains(lower[end]), lower[end] != " " else { continue }
            return end
        }
        return nil
    }

    /// British spellings folded to the American ones the examples use (and a few Chinese synonyms),
    /// letter for letter so a request's lower-case form stays aligned with its original
    /// (`summarise` reads as `summarize`).
    static let sameLengthSpellings: [(String, String)] = [
        ("summaris", "summariz"), ("organis", "organiz"), ("recognis", "recogniz"), ("prioritis", "prioritiz"),
        ("customis", "customiz"), ("categoris", "categoriz"), ("synchronis", "synchroniz"), ("analys", "analyz"),
        ("normalis", "normaliz"), ("initialis", "initializ"),
        // Chinese words of the same length the examples say otherwise: 拷贝 is 复制, 挪到 is 移到.
        ("拷贝", "复制"), ("挪到", "移到"), ("挪进", "移进"),
    ]
    /// Spellings that differ in length, folded in scored words only.
    static let wordSpellings: [String: String] = [
        "colour": "color", "colours": "colors", "favourite": "favorite", "favourites": "favorites", "centre": "center",
        "catalogue": "catalog", "behaviour": "behavior", "licence": "license", "cheque": "check",
        // verbs said another way: "shift the .epub books over to X" is a move
        "shift": "move", "relocate": "move", "duplicate": "copy", "erase": "delete", "wipe": "delete", "purge": "delete",
    ]

    /// `sameLengthSpellings` applied to lower-case characters (the count never changes).
    static func foldSpelling(_ lower: [Character]) -> [Character] {
        var text = String(lower)
        guard sameLengthSpellings.contains(where: { text.contains($0.0) }) else { return lower }
        for (british, american) in sameLengthSpellings { text = text.replacingOccurrences(of: british, with: american) }
        let folded = Array(text)
        return folded.count == lower.count ? folded : lower
    }

    /// English parts of the day the date parser does not read, turned into a time it does:
    /// `tomorrow evening at 7` → `tomorrow at 7pm`, `tonight at 9` → `today at 9pm`,
    /// `friday morning at 8` → `friday at 8am`. `nil` when there is nothing to turn.
    static func partOfDay(_ text: String) -> String? {
        var words = text.lowercased().split(separator: " ").map(String.init)
        let parts: [String: (suffix: String, day: String?)] = [
            "morning": ("am", nil), "afternoon": ("pm", nil), "evening": ("pm", nil), "night": ("pm", nil),
            "tonight": ("pm", "today"),
        ]
        guard let at = words.firstIndex(where: { parts[$0] != nil }), let part = parts[words[at]] else { return nil }
        if let day = part.day { words[at] = day } else { words.remove(at: at) }
        if at > 0, words[at - 1] == "in" || words[at - 1] == "the" { return nil }
        guard let hour = words.lastIndex(where: { Int($0).map { (1...12).contains($0) } ?? false }) else { return nil }
        words[hour] += part.suffix
        return words.joined(separator: " ")
    }

    /// Words that say nothing about what to do.
    static let stopwords: Set<String> = [
        "a", "an", "the", "to", "of", "for", "in", "on", "at", "my", "me", "i", "you", "your", "it", "its", "this",
        "that", "these", "those", "is", "are", "be", "with", "and", "or", "please", "can", "could", "would", "will",
        "some", "from", "by", "up", "what", "do", "does", "how", "as", "so", "we", "our", "us", "into", "all", "any",
        "there", "here", "now", "just", "about", "want", "need", "like", "let", "s", "'s", "is", "am", "then",
    ]
    /// Chinese characters too common to count alone (they still count inside bigrams).
    static let stopCharacters: Set<Character> = [
        "的", "了", "我", "把", "一", "下", "个", "吧", "请", "帮", "你", "们", "是", "在", "和", "要", "给", "用", "将",
        "这", "那", "些", "么", "什", "吗", "呢", "啊", "就", "都", "也", "到",
    ]

    /// How a path starts: `/`, `~/`, `./` or `../`.
    static let pathStarts = ["/", "~/", "./", "../"]
    /// How a web address starts (case aside).
    static let webStarts = ["http://", "https://"]

    /// Whether a word starts as a path or a web address does.
    static func startsAsAddress(_ word: some StringProtocol) -> Bool {
        let lowered = word.lowercased()
        return (pathStarts + webStarts).contains { lowered.hasPrefix($0) }
    }

    /// Where a character stands with respect to quotes.
    enum QuotePlace { case outside, mark, inside }

    /// For each character: outside quotes, a quote mark, or inside a quote ("…", “…”, or '…'
    /// opened after a space: an apostrophe, as in "it's", opens nothing, and one before a letter
    /// closes nothing); `nil` when a quote is left open.
    static func quotePlaces(_ characters: [Character]) -> [QuotePlace]? {
        var places: [QuotePlace] = []
        places.reserveCapacity(characters.count)
        var closing: Character?
        var previous: Character = " "
        for (i, c) in characters.enumerated() {
            if let close = closing {
                // (a ' before a letter is an apostrophe inside the quote: 'don't panic')
                let closes = c == close && !(c == "'" && i + 1 < characters.count && characters[i + 1].isLetter)
                if closes { closing = nil }
                places.append(closes ? .mark : .inside)
            } else if c == "\"" || c == "“" || (c == "'" && previous == " " && characters[(i + 1)...].contains("'")) {
                closing = c == "“" ? "”" : c
                places.append(.mark)
            } else {
                places.append(.outside)
            }
            previous = c
        }
        return closing == nil ? places : nil
    }

    /// The quoted texts of `text`, in order; `nil` when a quote is left open.
    static func quotedTexts(_ text: String) -> [String]? {
        let characters = Array(text)
        guard let places = quotePlaces(characters) else { return nil }
        var texts: [String] = []
        var open = false
        for (c, place) in zip(characters, places) {
            switch place {
            case .mark:
                if !open { texts.append("") }
                open.toggle()
            case .inside: texts[texts.count - 1].append(c)
            case .outside: break
            }
        }
        return texts
    }

    /// `text` without the quoted texts of two words or more: values, not words of what to do. A
    /// single quoted word stays ("tagged 'work'").
    static func withoutQuotedTexts(_ text: String) -> String {
        guard text.contains(where: { $0 == "\"" || $0 == "“" || $0 == "'" }) else { return text }
        let characters = Array(text)
        guard let places = quotePlaces(characters) else { return text }
        var out = ""
        var quoted = ""
        var open = false
        for (c, place) in zip(characters, places) {
            switch place {
            case .outside: out.append(c)
            case .inside: quoted.append(c)
            case .mark:
                if open {
                    if !quoted.contains(" ") { out += quoted + " " }
                    quoted = ""
                }
                open.toggle()
            }
        }
        return out
    }

    /// The text without its words that are paths or web addresses (`startsAsAddress`).
    static func withoutAddresses(_ text: String) -> String {
        guard text.contains("/") else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: true).filter { !startsAsAddress($0) }.joined(separator: " ")
    }

    /// A light English stemmer: plural and common suffixes, so `notes` meets `note`, `reminders` `reminder`.
    static func stem(_ word: String) -> String {
        var w = word
        if w.hasSuffix("'s") { w.removeLast(2) }
        if w.count > 4, w.hasSuffix("ies") { return String(w.dropLast(3)) + "y" }
        if w.count > 4, w.hasSuffix("ing") { return String(w.dropLast(3)) }
        if w.count > 4, w.hasSuffix("ed") { return String(w.dropLast(2)) }
        if w.count > 3, w.hasSuffix("es"), ["s", "x", "h"].contains(w.dropLast(2).last.map(String.init) ?? "") {
            return String(w.dropLast(2))
        }
        if w.count > 3, w.hasSuffix("s"), !w.hasSuffix("ss") { return String(w.dropLast()) }
        return w
    }

    /// The scored tokens of a text: stemmed words (stopwords left out) and, for runs of Chinese,
    /// each character (common ones left out) and each pair of neighbours.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        var run: [Character] = []
        func flushWord() {
            if !word.isEmpty, !stopwords.contains(word) {
                let folded = String(foldSpelling(Array(word)))
                let stemmed = stem(wordSpellings[folded] ?? folded)
                // `what's` is `what`: a stopword once its `'s` is gone.
                if !stopwords.contains(stemmed) { tokens.append(stemmed) }
            }
            word = ""
        }
        func flushRun() {
            for (i, c) in run.enumerated() {
                if !stopCharacters.contains(c) { tokens.append(String(c)) }
                if i + 1 < run.count { tokens.append(String([c, run[i + 1]])) }
            }
            run = []
        }
        for raw in text {
            let c = lower(foldWidth(raw))
            if isCJK(c) {
                flushWord()
                run.append(c)
            } else if isWordCharacter(c) {
                flushRun()
                word.append(c)
            } else {
                flushWord()
                flushRun()
            }
        }
        flushWord()
        flushRun()
        return tokens
    }
}
