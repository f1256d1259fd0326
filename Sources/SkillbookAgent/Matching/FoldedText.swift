/// A request as the pattern matcher walks it: width-folded characters as written (for captures)
/// beside their lower-case forms (for comparing), with fillers and edge punctuation removed.
struct FoldedText: Sendable {
    /// Width-folded, case kept: what a capture returns.
    var original: [Character]
    /// The same characters lower-cased, one for one.
    var lower: [Character]

    init(_ text: String) {
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
        self.lower = original.map(TextFolding.lower)
        removeChineseFillers()
        trimFillers()
    }

    var count: Int { original.count }
    var text: String { String(original) }
    var lowerText: String { String(lower) }

    func slice(_ range: Range<Int>) -> String { String(original[range]) }

    private mutating func remove(_ range: Range<Int>) {
        original.removeSubrange(range)
        lower.removeSubrange(range)
    }

    private mutating func removeChineseFillers() {
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
            while let first = lower.first, TextFolding.edgePunctuation.contains(first) {
                remove(0..<1)
                changed = true
            }
            while let last = lower.last, TextFolding.edgePunctuation.contains(last) || TextFolding.chineseTrailing.contains(last) {
                remove((lower.count - 1)..<lower.count)
                changed = true
            }
            for filler in TextFolding.leadingFillers {
                let needle = Array(filler + " ")
                if lower.count > needle.count, lower[0..<needle.count].elementsEqual(needle) {
                    remove(0..<needle.count)
                    changed = true
                }
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
        var folded = FoldedText(text)
        folded.trimFillers()
        return folded.text
    }
}
