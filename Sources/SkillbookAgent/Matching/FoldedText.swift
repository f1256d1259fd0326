/// A request as the pattern matcher walks it: width-folded characters as written (for captures)
/// beside their lower-case forms (for comparing), with fillers and edge punctuation removed.
struct FoldedText: Sendable {
    /// Width-folded, case kept: what a capture returns.
    var original: [Character]
    /// The same characters lower-cased, one for one.
    var lower: [Character]
    /// A whole request (or clause), not a captured piece: words of order at its start are dropped.
    let isRequest: Bool

    /// `request`: the text is a whole request, so a greeting before it (`hi,`, `早上好，`) is dropped;
    /// a captured piece keeps it.
    init(_ text: String, request: Bool = true) {
        var original: [Character] = []
        var lastWasSpace = true
        for raw in text {
            var c = TextFolding.foldWidth(raw)
            if c.isWhitespace { c = " " }
            if c == " " {
                if lastWasSpace { continue }
                lastWasSpace = true
            } else {
                lastWasSpace = false
            }
            original.append(c)
        }
        self.original = original
        self.lower = TextFolding.foldSpelling(original.map(TextFolding.lower))
        self.isRequest = request
        removeChineseFillers()
        trimFillers()
        if request, dropGreeting() { trimFillers() }
    }

    /// Drops a greeting at the start when punctuation follows it (`good morning! brief me`,
    /// `你好，写日记`); a request that is only a greeting keeps it (the matcher refuses those).
    private mutating func dropGreeting() -> Bool {
        guard let end = TextFolding.greetingEnd(lower) else { return false }
        remove(0..<end)
        return true
    }

    /// Whether the text is nothing but a greeting (`hello`, `good morning`, `你好`).
    var isGreeting: Bool { TextFolding.greetings.contains(lowerText) }

    var count: Int { original.count }
    var text: String { String(original) }
    var lowerText: String { String(lower) }

    func slice(_ range: Range<Int>) -> String { String(original[range]) }

    private mutating func remove(_ range: Range<Int>) {
        original.removeSubrange(range)
        lower.removeSubrange(range)
    }

    private mutating func removeChineseFillers() {
        // 都/全部/全都 right before a verb only says "all of them" ("…文件都移动到 X"): the object says it.
        for adverb in TextFolding.chineseAllAdverbs {
            let needle = Array(adverb)
            var i = 0
            while i + needle.count <= lower.count {
                let rest = String(lower[(i + needle.count)...].prefix(3))
                if lower[i..<(i + needle.count)].elementsEqual(needle), TextFolding.chineseAllVerbs.contains(where: rest.hasPrefix) {
                    remove(i..<(i + needle.count))
                } else {
                    i += 1
                }
            }
        }
        for filler in TextFolding.chineseFillers {
            let needle = Array(filler)
            var i = 0
            while i + needle.count <= lower.count {
                if lower[i] == needle[0], lower[i..<(i + needle.count)].elementsEqual(needle) {
                    remove(i..<(i + needle.count))
                } else {
                    i += 1
                }
            }
        }
    }

    /// Drops edge punctuation, leading and trailing English fillers and trailing Chinese particles,
    /// until nothing more changes.
    mutating func trimFillers() {
        var changed = true
        while changed && !lower.isEmpty {
            changed = false
            // `./x` and `../x` are paths: their dots stay.
            while let first = lower.first, TextFolding.edgePunctuation.contains(first),
                !(first == "." && (lower.starts(with: Array("./")) || lower.starts(with: Array("../"))))
            {
                remove(0..<1)
                changed = true
            }
            while let last = lower.last, TextFolding.edgePunctuation.contains(last) || TextFolding.chineseTrailing.contains(last) {
                remove((lower.count - 1)..<lower.count)
                changed = true
            }
            // "挪到 /tmp/pictures 去", "…到 /tmp/pdf 里去", "放进 /tmp/a 里面": after a path these only
            // say where to.
            for place in [" 里面去", " 里去", " 中去", " 去", " 里面", " 里"] where lower.count > place.count + 1 {
                guard lower.suffix(place.count).elementsEqual(place) else { continue }
                remove((lower.count - place.count)..<lower.count)
                changed = true
                break
            }
            if isRequest {
                for filler in TextFolding.chineseLeading where lower.count > filler.count && lower.starts(with: Array(filler)) {
                    remove(0..<filler.count)
                    changed = true
                }
            }
            // Words of order ("first …") start a request or clause, never a captured text.
            for filler in TextFolding.leadingFillers + (isRequest ? TextFolding.leadingOrder : []) {
                let needle = Array(filler + " ")
                if lower.count > needle.count, lower[0..<needle.count].elementsEqual(needle) {
                    remove(0..<needle.count)
                    changed = true
                }
            }
            // "read it back", "send them back": back says where, not what ("back it up" is a backup).
            let back = " back"
            for object in [" it", " them"].map({ $0 + back }) where lower.count > object.count && lower.suffix(object.count).elementsEqual(object) {
                remove((lower.count - back.count)..<lower.count)
                changed = true
            }
            for filler in TextFolding.trailingFillers {
                let needle = Array(" " + filler)
                if lower.count > needle.count, lower[(lower.count - needle.count)...].elementsEqual(needle) {
                    remove((lower.count - needle.count)..<lower.count)
                    changed = true
                }
            }
        }
    }

    /// A captured piece of text, trimmed the same way as a whole request.
    static func capture(_ text: String) -> String {
        var folded = FoldedText(text, request: false)
        folded.trimFillers()
        return folded.text
    }
}
