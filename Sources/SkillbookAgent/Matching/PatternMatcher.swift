import Foundation
import SkillbookCore

/// Matches a whole request against one `PhrasePattern`, filling its slots by type.
///
/// Literal text is compared without regard to case and width; a space in the pattern matches any
/// run of spaces or none (Chinese has no spaces), and a request may have spaces where the pattern has
/// none at a slot's edge. A slot takes, by kind: a date the longest text the shared `DateParser`
/// reads (so `tomorrow at 9 to call Anna` gives `tomorrow at 9`); a URL, path or number one word;
/// an enum one of its values; a string or list as little text as lets the rest of the pattern match,
/// or all the rest when it is last. Captured text is trimmed of fillers and edge punctuation.
struct PatternMatcher {
    let dates: DateParser
    /// What the date parser said about each text tried, for this request: many patterns try the same.
    let dateCache = DateCache()

    final class DateCache {
        var results: [String: Bool] = [:]
    }

    struct Capture: Sendable {
        var name: String
        var text: String
        var kind: PhrasePattern.SlotKind
        var schema: Schema
        /// Characters the slot took.
        var length: Int
        /// A path slot that took a bare word (`src`, `文档`), taken only beside a real path.
        var bare = false
    }

    struct Match: Sendable {
        var captures: [Capture]
        /// Request characters (without spaces) explained by literal text or a typed slot.
        var explained: Int
    }

    func match(_ pattern: PhrasePattern, _ text: FoldedText, compact: [Character]) -> Match? {
        guard Self.mayMatch(pattern, compact: compact) else { return nil }
        var captures: [Capture] = []
        guard walk(pattern.segments[...], text, from: 0, &captures) else { return nil }
        // A bare word reads as a path only next to one that is plainly a path: `pack src into
        // /tmp/src.tar.gz`, `把报告.pdf移到文档`, but not `remove milk`.
        if captures.contains(where: \.bare), !captures.contains(where: { !$0.bare && ($0.kind == .path || $0.kind.isPathList) }) {
            return nil
        }
        var explained = pattern.literalWeight
        for capture in captures where capture.kind != .text {
            if case .list(let item) = capture.kind {
                // A list of paths or addresses is typed: it explains itself. Other lists are words.
                guard [.path, .uri].contains(PhrasePattern.kind(of: item)) else { continue }
            }
            explained += capture.text.filter { $0 != " " }.count
        }
        return Match(captures: captures, explained: explained)
    }

    /// Every literal piece occurs in the request (`compact`: its lower-case characters without
    /// spaces), in order: cheap, and rules out most patterns.
    static func mayMatch(_ pattern: PhrasePattern, compact: [Character]) -> Bool {
        var start = 0
        for literal in pattern.literals where !literal.isEmpty {
            guard let found = find(literal, in: compact, from: start) else { return false }
            start = found + literal.count
        }
        return true
    }

    static func find(_ needle: [Character], in haystack: [Character], from: Int) -> Int? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        var i = from
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    private func walk(
        _ segments: ArraySlice<PhrasePattern.Segment>, _ text: FoldedText, from start: Int, _ captures: inout [Capture]
    ) -> Bool {
        guard let segment = segments.first else {
            return text.lower[start...].allSatisfy { $0 == " " }
        }
        let rest = segments.dropFirst()
        switch segment {
        case .literal(let chars):
            guard let end = Self.matchLiteral(chars, text.lower, at: start) else { return false }
            return walk(rest, text, from: end, &captures)
        case .slot(let name, let kind, let schema):
            var begin = start
            while begin < text.count, text.lower[begin] == " " { begin += 1 }
            guard begin < text.count else { return false }
            for end in ends(kind, text, from: begin, last: rest.isEmpty) {
                let raw = text.slice(begin..<end)
                var captured = FoldedText.capture(raw)
                var named = false
                if kind == .path || kind.isPathList,
                    let name = Self.namedFolder(captured)
                {
                    captured = name
                    named = true
                }
                if kind == .date, !accepts(kind, captured), let turned = TextFolding.partOfDay(captured) {
                    captured = turned
                }
                guard !captured.isEmpty else { continue }
                var bare = false
                if !named, !accepts(kind, captured) {
                    guard kind == .path || kind.isPathList, Self.isBareWord(captured) else { continue }
                    bare = true
                }
                captures.append(Capture(name: name, text: captured, kind: kind, schema: schema, length: end - begin, bare: bare))
                if walk(rest, text, from: end, &captures) { return true }
                captures.removeLast()
            }
            return false
        }
    }

    /// Where a literal matched at `start` ends, or `nil`.
    static func matchLiteral(_ literal: [Character], _ lower: [Character], at start: Int) -> Int? {
        var i = start
        while i < lower.count, lower[i] == " " { i += 1 }
        // Where the literal's last non-space character matched.
        var afterLast = i
        for c in literal {
            if c == " " {
                while i < lower.count, lower[i] == " " { i += 1 }
                continue
            }
            guard i < lower.count, lower[i] == c else { return nil }
            i += 1
            afterLast = i
        }
        // A literal that ends inside a word does not match (`note` in `notebook`), nor does one that
        // ends in a space before a slot (`remind me to ` in `remind me tomorrow`).
        if let last = literal.last(where: { $0 != " " }), TextFolding.isWordCharacter(last), afterLast < lower.count,
            TextFolding.isWordCharacter(lower[afterLast])
        {
            return nil
        }
        return i
    }

    /// The candidate end positions of a slot starting at `begin`, in the order they are tried.
    private func ends(_ kind: PhrasePattern.SlotKind, _ text: FoldedText, from begin: Int, last: Bool) -> [Int] {
        let all = Array((begin + 1)...text.count)
        let boundaries = all.filter { end in
            end == text.count || text.lower[end] == " " || !TextFolding.isWordCharacter(text.lower[end])
                || TextFolding.isCJK(text.lower[end]) || TextFolding.isCJK(text.lower[end - 1])
        }
        switch kind {
        case .date:
            return boundaries.reversed()
        case .uri, .path, .number:
            // One word: up to the first space (a quoted path may hold spaces).
            if text.lower[begin] == "\"", let close = text.lower[(begin + 1)...].firstIndex(of: "\"") {
                return [close + 1]
            }
            // A comma or semicolon before a space, Chinese or the end closes the word: "复制到
            // /tmp/share，复制完算一下校验和" is a path and the next clause.
            var stop = begin
            while stop < text.count, text.lower[stop] != " " {
                if [",", ";"].contains(text.lower[stop]),
                    stop + 1 == text.count || text.lower[stop + 1] == " " || TextFolding.isCJK(text.lower[stop + 1])
                {
                    break
                }
                stop += 1
            }
            var end = begin
            while end < stop, !TextFolding.isCJK(text.lower[end]) { end += 1 }
            if end == begin, kind != .number, TextFolding.isCJK(text.lower[begin]) { end = begin + 1 }
            guard end > begin else { return [] }
            guard kind != .number, text.lower[begin] != "\"" else { return [end] }
            // A path or address may go on in Chinese (`~/桌面`, `https://example.com/文章`): every place
            // the word changes script is an end, longest first, so the pattern's next literal
            // (`整理{folder}`, `把{paths}移到{into}`) still finds its place.
            let wordEnd = stop
            guard wordEnd > end else { return [end] }
            return boundaries.filter { $0 >= end && $0 <= wordEnd }.reversed()
        case .choice:
            return boundaries
        case .text, .list:
            return last ? [text.count] : boundaries
        }
    }

    private func accepts(_ kind: PhrasePattern.SlotKind, _ text: String) -> Bool {
        switch kind {
        case .date:
            if let known = dateCache.results[text] { return known }
            let parsed = dates.parse(text) != nil
            dateCache.results[text] = parsed
            return parsed
        case .uri:
            return Self.url(text) != nil
        case .path:
            return Self.looksLikePath(text)
        case .number:
            return Double(text) != nil
        case .choice(let values):
            return values.contains { $0.lowercased() == text.lowercased() }
        case .list(let item):
            let items = Self.listItems(text)
            switch PhrasePattern.kind(of: item) {
            case .uri: return !items.isEmpty && items.allSatisfy { Self.url($0) != nil }
            case .path: return !items.isEmpty && items.allSatisfy(Self.looksLikePath)
            default: return !items.isEmpty
            }
        case .text:
            return true
        }
    }

    /// One word of letters, digits, `_` and `-` (Latin or Chinese), as a folder's name may be.
    static func isBareWord(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 40
            && text.allSatisfy { TextFolding.isWordCharacter($0) && $0 != "'" || TextFolding.isCJK($0) || $0 == "-" }
    }

    /// `the docs folder`, `my src directory` → `docs`, `src`: a folder named in words is that path;
    /// `nil` for anything else.
    static func namedFolder(_ text: String) -> String? {
        let words = text.split(separator: " ")
        guard (2...3).contains(words.count), let last = words.last, ["folder", "directory", "dir"].contains(last.lowercased())
        else { return nil }
        let name = words[words.count - 2]
        guard words.count == 2 || ["the", "my"].contains(words[0].lowercased()),
            !["this", "that", "the", "a", "my", "downloads"].contains(name.lowercased())
        else { return nil }
        return String(name)
    }

    /// A word that reads as a path rather than as ordinary words: it holds `/`, `.`, `~` or `\\`,
    /// or is a capitalised name such as `Downloads`; spaces only in a path with `/`.
    static func looksLikePath(_ text: String) -> Bool {
        guard !text.isEmpty, !text.contains("\0") else { return false }
        // A quoted path may hold spaces; an unquoted one is one word.
        if text.contains(" ") && !text.contains("/") { return false }
        if text.contains(where: { "/.~\\".contains($0) }) { return true }
        guard let first = text.first else { return false }
        return first.isASCII && first.isUppercase
    }

    /// An http(s) address, with `https://` added to a bare `example.com/page`.
    static func url(_ text: String) -> String? {
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            return text.count > 8 && !text.contains(" ") ? text : nil
        }
        let host = text.prefix { $0 != "/" }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }),
            let tld = labels.last, tld.count >= 2, tld.allSatisfy(\.isLetter)
        else { return nil }
        return "https://" + text
    }

    /// The elements of a list slot: split at commas, `、`, ` and ` and `和`.
    static func listItems(_ text: String) -> [String] {
        var pieces = [text]
        for separator in [",", " and ", "和", ";"] {
            pieces = pieces.flatMap { $0.components(separatedBy: separator) }
        }
        return pieces.map(FoldedText.capture).filter { !$0.isEmpty }
    }
}
