/// A forgiving HTML tokenizer over UTF-8 bytes, after the HTML standard where it matters for
/// reading real pages, and simpler where it does not: it never fails, works in one pass (linear in
/// the input), and leaves tree building to its caller.
///
/// - Tag and attribute names are lower-cased; attribute values may be double-, single- or
///   unquoted, and their character references are decoded. Only the first of duplicate
///   attributes counts. A tag cut off by the end of the input is dropped.
/// - The contents of `script`, `style`, `noscript`, `iframe`, `xmp`, `noembed`, `noframes` are
///   skipped; those of `title` and `textarea` are text up to their end tag (an unclosed `title`
///   ends at the next `<`, so that one mistake does not swallow the page).
/// - Comments (`<!-- … -->`), `<!DOCTYPE …>`, `<? … >` are skipped; `<![CDATA[ … ]]>` is text.
/// - A `<` that does not start a tag is text.
///
/// Text comes back as byte ranges, so that text nobody reads is never decoded; `text(_:)` decodes
/// a range (character references included).
struct HTMLTokenizer {
    struct Tag {
        var name: String
        var attributes: [(name: String, value: String)]
        var selfClosing: Bool

        func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }
    }

    enum Token {
        case startTag(Tag)
        case endTag(String)
        /// Text with character references to decode.
        case text(Range<Int>)
        /// Text taken literally (CDATA).
        case literal(Range<Int>)
    }

    let bytes: [UInt8]
    private(set) var position = 0
    /// After a start tag whose contents are not markup: its name.
    private var rawElement: String?
    /// For an element name: a position after which its end tag is known not to occur, so that many
    /// unclosed elements cost one scan, not one each.
    private var noEndTagAfter: [String: Int] = [:]

    static let skippedElements: Set<String> = ["script", "style", "noscript", "iframe", "xmp", "noembed", "noframes"]
    static let textElements: Set<String> = ["title", "textarea"]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() -> Token? {
        if let element = rawElement {
            rawElement = nil
            if let token = rawContents(of: element) { return token }
        }
        while position < bytes.count {
            guard bytes[position] == .lessThan else {
                let start = position
                position = find(.lessThan, from: position) ?? bytes.count
                return .text(start..<position)
            }
            let start = position
            guard position + 1 < bytes.count else {
                position = bytes.count
                return .text(start..<bytes.count)
            }
            let next = bytes[position + 1]
            if next.isASCIILetter {
                guard let tag = startTag() else { return nil }
                if Self.skippedElements.contains(tag.name) || Self.textElements.contains(tag.name) {
                    rawElement = tag.name
                }
                return .startTag(tag)
            }
            switch next {
            case .slash:
                if position + 2 < bytes.count, bytes[position + 2].isASCIILetter {
                    if let name = endTag() { return .endTag(name) }
                    return nil
                }
                skipPast(.greaterThan, from: position + 2)
            case .exclamation:
                if matches("<!--", at: position) {
                    comment()
                } else if matches("<![CDATA[", at: position) {
                    let contents = position + 9
                    let end = find("]]>", from: contents) ?? bytes.count
                    position = min(end + 3, bytes.count)
                    return .literal(contents..<end)
                } else {
                    skipPast(.greaterThan, from: position + 2)
                }
            case .question:
                skipPast(.greaterThan, from: position + 2)
            default:
                position += 1
                return .text(start..<position)
            }
        }
        return nil
    }

    /// Decoded text of a range.
    func text(_ range: Range<Int>) -> String {
        HTMLEntities.decode(bytes[range], inAttribute: false)
    }

    func literal(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    // MARK: - Pieces

    /// The contents of a skipped or text-only element, up to (not including) its end tag.
    private mutating func rawContents(of element: String) -> Token? {
        let start = position
        var end = bytes.count
        var search = position
        if let known = noEndTagAfter[element], known <= position { search = bytes.count }
        while let lessThan = find(.lessThan, from: search) {
            if lessThan + 1 < bytes.count, bytes[lessThan + 1] == .slash,
                matchesName(element, at: lessThan + 2)
            {
                let after = lessThan + 2 + element.utf8.count
                if after >= bytes.count || bytes[after].isHTMLSpace || bytes[after] == .slash
                    || bytes[after] == .greaterThan
                {
                    end = lessThan
                    break
                }
            }
            search = lessThan + 1
        }
        if end == bytes.count {
            noEndTagAfter[element] = min(noEndTagAfter[element] ?? start, start)
            if element == "title" { end = find(.lessThan, from: start) ?? bytes.count }
        }
        position = end
        guard Self.textElements.contains(element), end > start else { return nil }
        return .text(start..<end)
    }

    private mutating func startTag() -> Tag? {
        var index = position + 1
        let nameStart = index
        while index < bytes.count, !bytes[index].isHTMLSpace, bytes[index] != .slash, bytes[index] != .greaterThan {
            index += 1
        }
        var tag = Tag(name: Self.lowercased(bytes[nameStart..<index]), attributes: [], selfClosing: false)
        while true {
            while index < bytes.count, bytes[index].isHTMLSpace || bytes[index] == .slash {
                if bytes[index] == .slash, index + 1 < bytes.count, bytes[index + 1] == .greaterThan {
                    tag.selfClosing = true
                }
                index += 1
            }
            guard index < bytes.count else {
                position = bytes.count
                return nil
            }
            if bytes[index] == .greaterThan {
                position = index + 1
                return tag
            }
            let attributeStart = index
            index += 1  // a name may start with `=`
            while index < bytes.count, !bytes[index].isHTMLSpace, bytes[index] != .slash,
                bytes[index] != .greaterThan, bytes[index] != .equals
            {
                index += 1
            }
            let name = Self.lowercased(bytes[attributeStart..<index])
            var value = ""
            var afterName = index
            while afterName < bytes.count, bytes[afterName].isHTMLSpace { afterName += 1 }
            if afterName < bytes.count, bytes[afterName] == .equals {
                index = afterName + 1
                while index < bytes.count, bytes[index].isHTMLSpace { index += 1 }
                guard index < bytes.count else {
                    position = bytes.count
                    return nil
                }
                let quote = bytes[index]
                if quote == .doubleQuote || quote == .singleQuote {
                    let valueStart = index + 1
                    // An unclosed quote ends at the tag's `>` rather than swallowing the page.
                    let valueEnd = find(quote, from: valueStart) ?? find(.greaterThan, from: valueStart) ?? bytes.count
                    value = HTMLEntities.decode(bytes[valueStart..<valueEnd], inAttribute: true)
                    index = valueEnd < bytes.count && bytes[valueEnd] == quote ? valueEnd + 1 : valueEnd
                } else {
                    let valueStart = index
                    while index < bytes.count, !bytes[index].isHTMLSpace, bytes[index] != .greaterThan { index += 1 }
                    value = HTMLEntities.decode(bytes[valueStart..<index], inAttribute: true)
                }
            }
            if !tag.attributes.contains(where: { $0.name == name }) {
                tag.attributes.append((name, value))
            }
        }
    }

    private mutating func endTag() -> String? {
        var index = position + 2
        let nameStart = index
        while index < bytes.count, !bytes[index].isHTMLSpace, bytes[index] != .slash, bytes[index] != .greaterThan {
            index += 1
        }
        let name = Self.lowercased(bytes[nameStart..<index])
        guard let close = find(.greaterThan, from: index) else {
            position = bytes.count
            return nil
        }
        position = close + 1
        return name
    }

    private mutating func comment() {
        let contents = position + 4
        if matches(">", at: contents) {
            position = contents + 1
        } else if matches("->", at: contents) {
            position = contents + 2
        } else {
            var search = contents
            while let dashes = find("--", from: search) {
                if matches("-->", at: dashes) {
                    position = dashes + 3
                    return
                }
                if matches("--!>", at: dashes) {
                    position = dashes + 4
                    return
                }
                search = dashes + 1
            }
            position = bytes.count
        }
    }

    private mutating func skipPast(_ byte: UInt8, from index: Int) {
        position = (find(byte, from: index) ?? bytes.count - 1) + 1
    }

    // MARK: - Byte helpers

    private func find(_ byte: UInt8, from index: Int) -> Int? {
        guard index < bytes.count else { return nil }
        return bytes[index...].firstIndex(of: byte)
    }

    /// The first occurrence of an ASCII `needle` at or after `index`.
    private func find(_ needle: StaticString, from index: Int) -> Int? {
        let first = needle.utf8Start.pointee
        var search = index
        while let candidate = find(first, from: search) {
            if matches(needle, at: candidate) { return candidate }
            search = candidate + 1
        }
        return nil
    }

    private func matches(_ needle: StaticString, at index: Int) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard index >= 0, index + count <= bytes.count else { return false }
        let pointer = needle.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    /// Whether the bytes at `index` spell the lower-case ASCII `name`, in any case.
    private func matchesName(_ name: String, at index: Int) -> Bool {
        var offset = index
        for byte in name.utf8 {
            guard offset < bytes.count, bytes[offset] | 0x20 == byte else { return false }
            offset += 1
        }
        return true
    }

    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

extension UInt8 {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let exclamation = UInt8(ascii: "!")
    static let question = UInt8(ascii: "?")
    static let equals = UInt8(ascii: "=")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")
    static let hash = UInt8(ascii: "#")

    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
    var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }
    /// Space, tab, line feed, form feed, carriage return.
    var isHTMLSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
}
