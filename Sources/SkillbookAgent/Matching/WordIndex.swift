import Foundation

/// Word scoring beyond exact patterns: every target's tokens weighted by where they appear
/// (phrases 1.0, name and title 0.7, tags 0.6, summary 0.35) and by how rare they are among the
/// targets (inverse document frequency); a token no target has weighs the most, so a request full
/// of words nothing knows scores low.
struct WordIndex: Sendable {
    struct Entry: Sendable {
        /// Token → the weight of the best field it appears in.
        var fields: [String: Double]
        /// Each phrase's tokens (literal text only), each once, in order.
        var phrases: [[String]]
        /// Σ idf of each phrase's tokens.
        var phraseMass: [Double]
    }

    static let phraseWeight = 1.0
    static let nameWeight = 0.7
    static let tagWeight = 0.6
    static let summaryWeight = 0.35

    private(set) var entries: [Entry] = []
    /// Token → (entry, field weight) for every entry that has it.
    private var postings: [String: [(Int, Double)]] = [:]
    /// Token → (entry, phrase index) for every phrase that has it.
    private var phrasePostings: [String: [(Int, Int)]] = [:]
    private var idf: [String: Double] = [:]
    private let unknownIDF: Double
    /// The known words of letters only, by their first letter: what a misspelt word is read as.
    private var spellable: [Character: [String]] = [:]

    init(_ targets: [RouteTarget], patterns: [[PhrasePattern?]]) {
        var documentFrequency: [String: Int] = [:]
        var entries: [Entry] = []
        for (i, target) in targets.enumerated() {
            var fields: [String: Double] = [:]
            func add(_ text: String, _ weight: Double) {
                for token in TextFolding.tokens(text) { fields[token] = max(fields[token] ?? 0, weight) }
            }
            add(target.summary, Self.summaryWeight)
            for tag in target.tags { add(tag, Self.tagWeight) }
            add(target.name.replacingOccurrences(of: ".", with: " ").replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " "), Self.nameWeight)
            add(target.title, Self.nameWeight)
            var phrases: [[String]] = []
            for (j, phrase) in target.phrases.enumerated() {
                let literal = patterns[i][j]?.literalText ?? Self.withoutSlots(phrase)
                add(literal, Self.phraseWeight)
                phrases.append(Self.unique(TextFolding.tokens(literal)))
            }
            for token in fields.keys { documentFrequency[token, default: 0] += 1 }
            entries.append(Entry(fields: fields, phrases: phrases, phraseMass: []))
        }
        let n = Double(max(targets.count, 1))
        unknownIDF = log(1 + n)
        for (token, df) in documentFrequency { idf[token] = log(1 + n / Double(df)) }
        for i in entries.indices {
            entries[i].phraseMass = entries[i].phrases.map { $0.reduce(0) { $0 + (idf[$1] ?? unknownIDF) } }
        }
        self.entries = entries
        for token in idf.keys.sorted() where token.count >= 5 && token.allSatisfy({ $0.isASCII && $0.isLetter }) {
            spellable[token.first!, default: []].append(token)
        }
        for (i, entry) in entries.enumerated() {
            for (token, field) in entry.fields { postings[token, default: []].append((i, field)) }
            for (k, phrase) in entry.phrases.enumerated() {
                for token in phrase { phrasePostings[token, default: []].append((i, k)) }
            }
        }
    }

    static func withoutSlots(_ phrase: String) -> String {
        var out = ""
        var inSlot = false
        for c in phrase {
            if c == "{" { inSlot = true } else if c == "}" { inSlot = false; out.append(" ") } else if !inSlot { out.append(c) }
        }
        return out
    }

    func weight(_ token: String) -> Double { idf[token] ?? unknownIDF }

    /// A request's tokens, each once in the order they come, with their weights' sum. A word no
    /// target knows is read as the known word one typo away ("apend" → "append"), if there is one.
    func request(_ text: String) -> (tokens: [String], mass: Double) {
        let tokens = Self.unique(TextFolding.tokens(text).map(spelled))
        return (tokens, tokens.reduce(0) { $0 + weight($1) })
    }

    /// `token`, or the known word it misspells: one letter left out or added, or two swapped,
    /// with the same first letter, both of five letters or more (shorter words are too often other
    /// words: "moon" is no "morn", "timer" no "time"). A letter changed is no typo here: it makes
    /// other real words ("remote" is no "remove", "taken" no "token"). Among several, the most
    /// common (lowest weight), then the first in alphabetical order.
    func spelled(_ token: String) -> String {
        guard idf[token] == nil, token.count >= 5, token.allSatisfy({ $0.isASCII && $0.isLetter }), let first = token.first,
            let known = spellable[first]
        else { return token }
        let word = Array(token)
        let near = known.filter { abs($0.count - word.count) <= 1 && Self.oneEditApart(word, Array($0), changing: false) }
        return near.min { (weight($0), $0) < (weight($1), $1) } ?? token
    }

    /// Whether `a` becomes `b` by one letter left out, added or (when `changing`) changed, or two
    /// neighbours swapped.
    static func oneEditApart(_ a: [Character], _ b: [Character], changing: Bool = true) -> Bool {
        if a == b { return false }
        if a.count == b.count {
            let differ = a.indices.filter { a[$0] != b[$0] }
            if differ.count == 1 { return changing }
            return differ.count == 2 && differ[1] == differ[0] + 1 && a[differ[0]] == b[differ[1]] && a[differ[1]] == b[differ[0]]
        }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        return short[i...] == long[(i + 1)...]
    }

    /// `tokens` without repeats, in order. Sums of weights run in this order, not a `Set`'s, whose
    /// order changes from process to process: two targets whose scores tie exactly must tie in
    /// every run, or the tie-break by name is a coin toss.
    static func unique(_ tokens: [String]) -> [String] {
        var seen: Set<String> = []
        return tokens.filter { seen.insert($0).inserted }
    }

    /// 0…1 for every entry: half how much of the request the target's texts cover, half how well
    /// the request overlaps its closest phrase (Dice coefficient over weighted tokens). One pass
    /// over the request's tokens through the inverted index.
    func scores(_ request: (tokens: [String], mass: Double)) -> [Double] {
        var covered = [Double](repeating: 0, count: entries.count)
        var shared = [[Double]](repeating: [], count: entries.count)
        guard request.mass > 0 else { return covered }
        for token in request.tokens {
            let w = weight(token)
            for (entry, field) in postings[token] ?? [] { covered[entry] += w * field }
            for (entry, phrase) in phrasePostings[token] ?? [] {
                if shared[entry].isEmpty { shared[entry] = [Double](repeating: 0, count: entries[entry].phrases.count) }
                shared[entry][phrase] += w
            }
        }
        var result = covered
        for i in entries.indices {
            var best = 0.0
            for (k, value) in shared[i].enumerated() {
                best = max(best, 2 * value / (request.mass + entries[i].phraseMass[k]))
            }
            result[i] = 0.5 * (covered[i] / request.mass) + 0.5 * best
        }
        return result
    }
}
