/// Search and replace over UTF-8 bytes. `String.contains` and `replacing` compare characters
/// (grapheme clusters), so a secret followed by a combining mark or a joiner (`abcd\u{301}`) was
/// neither found nor masked although its bytes were all there. UTF-8 is self-synchronising: a
/// match of a whole valid sequence starts and ends on scalar boundaries, so replacing it leaves
/// valid text.
enum UTF8Match {
    static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in needle.withUTF8 { firstMatch(of: $0, in: haystack, from: 0) != nil } }
    }

    /// `text` with every occurrence of `needle` (left to right, not overlapping) replaced by `mask`.
    static func replacing(_ needle: String, in text: String, with mask: String) -> String {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { pattern in
                guard var match = firstMatch(of: pattern, in: haystack, from: 0) else { return String(decoding: haystack, as: UTF8.self) }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(haystack.count)
                var copied = 0
                while true {
                    bytes.append(contentsOf: haystack[copied..<match])
                    bytes.append(contentsOf: mask.utf8)
                    copied = match + pattern.count
                    guard let next = firstMatch(of: pattern, in: haystack, from: copied) else { break }
                    match = next
                }
                bytes.append(contentsOf: haystack[copied...])
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    private static func firstMatch(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, haystack.count - start >= needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}
