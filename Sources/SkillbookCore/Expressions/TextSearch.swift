import Foundation

/// Linear-time search for a text in a text, by characters (extended grapheme clusters, compared
/// under canonical equivalence, as `String` compares them): Knuth–Morris–Pratt over the needle's
/// characters, streaming over the haystack. Foundation's `components(separatedBy:)`,
/// `replacingOccurrences(of:with:)` and `contains` are quadratic on a near-miss needle
/// (`a`×10⁶ searched for `a`×500,000 + `b`); these give their results in O(n + m).
enum TextSearch {
    /// The ranges of the leftmost non-overlapping occurrences of `needle` in `text`, left to
    /// right; at most `limit` of them. An empty needle occurs nowhere.
    static func occurrences(of needle: String, in text: String, limit: Int = .max) -> [Range<String.Index>] {
        let pattern = Array(needle)
        guard !pattern.isEmpty, limit > 0 else { return [] }
        // failure[k]: the length of the longest proper border of pattern[0..<k+1].
        var failure = [Int](repeating: 0, count: pattern.count)
        var border = 0
        for k in pattern.indices.dropFirst() {
            while border > 0, pattern[k] != pattern[border] { border = failure[border - 1] }
            if pattern[k] == pattern[border] { border += 1 }
            failure[k] = border
        }
        var found: [Range<String.Index>] = []
        // The start index of each of the last `pattern.count` characters read, in a ring.
        var starts = [String.Index](repeating: text.startIndex, count: pattern.count)
        var read = 0
        var matched = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            starts[read % pattern.count] = index
            read += 1
            while matched > 0, character != pattern[matched] { matched = failure[matched - 1] }
            if character == pattern[matched] { matched += 1 }
            if matched == pattern.count {
                found.append(starts[(read - pattern.count) % pattern.count]..<next)
                if found.count == limit { break }
                matched = 0
            }
            index = next
        }
        return found
    }

    /// Foundation's `contains` (kept: it matches inside a character, `\n` in `\r\n`, and under
    /// canonical equivalence): on ASCII texts by bytes in linear time, on others as before
    /// unless its quadratic worst case is over `foundationWork`, then by characters.
    static func contains(_ needle: String, in text: String) -> Bool {
        if needle.isEmpty { return true }
        if isASCII(text), isASCII(needle) { return !byteOccurrences(of: Array(needle.utf8), in: Array(text.utf8), limit: 1).isEmpty }
        if text.utf8.count.multipliedReportingOverflow(by: needle.utf8.count).partialValue <= foundationWork,
            text.utf8.count <= foundationWork
        {
            return text.contains(needle)
        }
        return !occurrences(of: needle, in: text, limit: 1).isEmpty
    }

    /// The most work (text bytes × needle bytes) handed to Foundation's quadratic search.
    static let foundationWork = 50_000_000

    private static func isASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }

    /// The start offsets of the leftmost non-overlapping occurrences of `needle` in `bytes`.
    private static func byteOccurrences(of needle: [UInt8], in bytes: [UInt8], limit: Int = .max) -> [Int] {
        guard !needle.isEmpty else { return [] }
        var failure = [Int](repeating: 0, count: needle.count)
        var border = 0
        for k in needle.indices.dropFirst() {
            while border > 0, needle[k] != needle[border] { border = failure[border - 1] }
            if needle[k] == needle[border] { border += 1 }
            failure[k] = border
        }
        var found: [Int] = []
        var matched = 0
        for (i, byte) in bytes.enumerated() {
            while matched > 0, byte != needle[matched] { matched = failure[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count {
                found.append(i + 1 - needle.count)
                if found.count == limit { break }
                matched = 0
            }
        }
        return found
    }

    /// `text` cut at each occurrence of a non-empty `separator` (the separators left out).
    static func split(_ text: String, by separator: String) -> [String] {
        var parts: [String] = []
        var from = text.startIndex
        for range in occurrences(of: separator, in: text) {
            parts.append(String(text[from..<range.lowerBound]))
            from = range.upperBound
        }
        parts.append(String(text[from...]))
        return parts
    }

    /// `text` with each occurrence of a non-empty `target` replaced by `replacement`.
    /// Foundation's `replacingOccurrences` (matching as `contains` does), linear on ASCII texts.
    static func replace(_ target: String, with replacement: String, in text: String) -> String {
        if isASCII(text), isASCII(target) {
            let bytes = Array(text.utf8)
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var from = 0
            for start in byteOccurrences(of: Array(target.utf8), in: bytes) {
                result += bytes[from..<start]
                result += replacement.utf8
                from = start + target.utf8.count
            }
            result += bytes[from...]
            return String(decoding: result, as: UTF8.self)
        }
        if text.utf8.count.multipliedReportingOverflow(by: target.utf8.count).partialValue <= foundationWork,
            text.utf8.count <= foundationWork
        {
            return text.replacingOccurrences(of: target, with: replacement)
        }
        var result = ""
        var from = text.startIndex
        for range in occurrences(of: target, in: text) {
            result += text[from..<range.lowerBound]
            result += replacement
            from = range.upperBound
        }
        result += text[from...]
        return result
    }
}
