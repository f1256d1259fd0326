import Foundation
import SkillbookCore

extension Matcher {
    /// What a one-clause request routed to an action asks to write when that is something a list
    /// query gives: "write my reminders for tomorrow to /tmp/r.txt" and "把标签为 读书 的笔记写入
    /// /tmp/读书.txt" route to files.write with the content "my reminders for tomorrow" — words that
    /// name reminders.list's output, not the text to write. The request is then two steps: `list`
    /// ("list my reminders for tomorrow", "列出标签为 读书 的笔记") and `rest`, the request with those
    /// words as "them" ("write them to /tmp/r.txt", "把它们写入 /tmp/读书.txt").
    ///
    /// The words are a captured content (`PlanSchema.isContent`: a text with no format, no set of
    /// values and no pattern that is no short label), at most 8 words, not starting with a verb or an
    /// address, and a skill that gives a list (`RouteTarget.listsItems`) is among their three best
    /// matches at the acceptance threshold or above.
    public func listedObject(in request: String, clock: ReferenceTime) -> (list: String, rest: String, query: String)? {
        listedObject(in: request, routed: single(request, clock: clock), clock: clock)
    }

    /// `listedObject(in:clock:)` for the request's decision as one clause.
    func listedObject(in request: String, routed decision: RouteDecision, clock: ReferenceTime) -> (list: String, rest: String, query: String)? {
        guard decision.layer == .skill, let routed = decision.target,
            let target = targets.first(where: { $0.name == routed }), !target.listsItems
        else { return nil }
        for (name, value) in decision.inputs {
            guard let schema = target.schema(of: name), let words = Self.capturedText(value),
                let phrase = Optional(words.trimmingCharacters(in: .whitespaces)), !phrase.isEmpty,
                request.contains(phrase)
            else { continue }
            let describesFiles = NamedPathLint.takesPath(schema)
            guard describesFiles ? Self.namesFiles(phrase) : PlanSchema.isContent(schema) && Self.isObject(phrase) else { continue }
            let chinese = phrase.contains(where: TextFolding.isCJK)
            // (files a path parameter was given are ranked as a listing: "all .tmp files from /tmp/x";
            // pictures are files: "列出 X 里的 jpg 照片" is ranked as "…jpg 文件"; "every .tmp file" as
            // "all .tmp files")
            let said = chinese ? "列出" + phrase : "list " + phrase
            let listing = describesFiles ? Self.asListing(said) : said
            let ranked = describesFiles ? listing : phrase
            let lists = rank(ranked, clock: clock).prefix(3).first { candidate in
                candidate.confidence >= thresholds.accept && targets.contains { $0.name == candidate.target && $0.listsItems }
            }
            guard let query = lists?.target else { continue }
            return (
                list: listing,
                rest: request.replacingOccurrences(of: phrase, with: chinese ? "它们" : "them"),
                query: query
            )
        }
        return nil
    }

    /// A listing of files said the way the examples say it: pictures and photos are files, "every
    /// file" is "all files", "X 下面的 …" is "X 里的 …" (paths stay as written: "/tmp/照片" is a
    /// folder's name).
    static func asListing(_ listing: String) -> String {
        listing.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            if word.contains("/") { return String(word) }
            switch word.lowercased() {
            case "every", "each": return "all"
            case "file": return "files"
            case let kind where kindWords.contains(kind): return "files"
            default:
                var said = word.replacingOccurrences(of: "照片", with: "文件").replacingOccurrences(of: "图片", with: "文件")
                for kind in kindWordsChinese { said = said.replacingOccurrences(of: kind, with: "文件") }
                for under in ["下面的", "底下的", "下的", "中的", "下面", "底下"] where said.hasPrefix(under) {
                    said = "里的" + said.dropFirst(under.count)
                    break
                }
                return said
            }
        }.joined(separator: " ")
    }

    /// A captured text, or the one text of a captured list (a `paths` list of one slot's words).
    static func capturedText(_ value: Value) -> String? {
        if case .array(let items) = value, items.count == 1 { return items[0].stringValue }
        return value.stringValue
    }

    /// Words captured for a path parameter that describe files rather than name one: "all .tmp
    /// files from /tmp/cache", "/tmp/照片 里所有 jpg 文件" — a path and words beside it, short
    /// (`isObject`, a leading path allowed) and saying files or all of them ("/tmp/old report.pdf"
    /// is a path with a space in it).
    static func namesFiles(_ phrase: String) -> Bool {
        guard !RequestValues(phrase).paths.isEmpty else { return false }
        // (the words beside the paths and file names: "~/照片" and "照片.tar.gz" name no pictures)
        let rest = TextFolding.withoutAddresses(phrase).split(separator: " ")
            .filter { !$0.contains(where: { "/.~\\".contains($0) }) }.joined(separator: " ")
        let words = Set(rest.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
        // (files of a kind said by what they hold, "the .epub books", "所有 .gz 日志", when an
        // extension says they are files)
        let kind = hasExtension(phrase) && (!words.isDisjoint(with: kindWords) || kindWordsChinese.contains(where: rest.contains))
        let says = !words.isDisjoint(with: setWords) || setWordsChinese.contains(where: rest.contains) || kind
        return says && isObject(rest)
    }

    /// Whether a word of `phrase` is an extension: `.gz`, `.epub`.
    static func hasExtension(_ phrase: String) -> Bool {
        phrase.split(separator: " ").contains { $0.count > 1 && $0.first == "." && $0.dropFirst().allSatisfy { $0.isLetter || $0.isNumber } }
    }

    /// What files of a kind are called by what they hold.
    static let kindWords: Set<String> = ["logs", "books", "videos", "songs", "archives", "backups", "images", "pdfs"]
    static let kindWordsChinese = ["日志", "文档", "视频", "镜像", "音乐", "备份", "压缩包"]

    /// Words that describe files as a set.
    static let setWords: Set<String> = ["files", "all", "every", "each", "documents", "pictures", "photos", "images"]
    static let setWordsChinese = ["文件", "所有", "全部", "图片", "照片"]

    /// Words that name things rather than say what to do: at most 8 words (24 characters of
    /// Chinese), not starting with a verb, a path or an address.
    static func isObject(_ phrase: String) -> Bool {
        let words = phrase.split(separator: " ")
        let short = phrase.contains(where: TextFolding.isCJK) ? phrase.count <= 24 : words.count <= 8
        return short && !CompoundSplitter.startsWithVerb(phrase) && !TextFolding.startsAsAddress(phrase)
    }
}
