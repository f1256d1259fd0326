import Foundation

/// The media type of a `Content-Type` value: `text/html; charset="ISO-8859-1"` →
/// `text/html` and `iso-8859-1`.
struct MediaType: Equatable {
    var type: String
    var charset: String?

    init(type: String, charset: String? = nil) {
        self.type = type
        self.charset = charset
    }

    init?(_ contentType: String?) {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
        let type = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
        guard !type.isEmpty else { return nil }
        self.type = type
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let value = TextDecoding.label(String(pair[1]))
            if !value.isEmpty { charset = value }
        }
    }

    var isHTML: Bool { type == "text/html" || type == "application/xhtml+xml" }
    var isPlainText: Bool { type == "text/plain" }
}

/// Bytes of a web response as text.
///
/// The encoding comes from, in order: a byte-order mark, the `Content-Type` charset, a
/// `<meta charset>` or `<meta http-equiv="Content-Type">` near the start of an HTML page; without
/// any, the bytes are read as UTF-8 when they are valid UTF-8 and as Windows-1252 otherwise. That
/// same fallback covers labels this does not know. ISO-8859-1 and ASCII are read as Windows-1252,
/// as browsers do. Invalid sequences become U+FFFD; nothing fails.
enum TextDecoding {
    /// How far into an HTML page a `<meta>` charset is looked for.
    static let metaScanBytes = 8192

    /// The text of `bytes`, and the name of the encoding used.
    static func decode(
        _ bytes: [UInt8], declared: String?, html: Bool, truncated: Bool = false
    ) -> (text: String, encoding: String) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (utf8(bytes.dropFirst(3), truncated: truncated), "utf-8")
        }
        if bytes.starts(with: [0xFE, 0xFF]) { return (utf16(bytes.dropFirst(2), bigEndian: true), "utf-16be") }
        if bytes.starts(with: [0xFF, 0xFE]) { return (utf16(bytes.dropFirst(2), bigEndian: false), "utf-16le") }
        var label = declared.map(Self.label)
        if label == nil || label?.isEmpty == true, html {
            label = metaCharset(in: bytes.prefix(metaScanBytes)).map { name in
                // A <meta> found by reading the bytes as ASCII cannot truly declare UTF-16.
                name.hasPrefix("utf-16") ? "utf-8" : name
            }
        }
        return decode(bytes, label: label ?? "", truncated: truncated)
    }

    static func decode(_ bytes: [UInt8], label: String, truncated: Bool) -> (text: String, encoding: String) {
        switch label {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
            return (utf8(bytes[...], truncated: truncated), "utf-8")
        case "windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso88591", "iso_8859-1",
            "iso_8859-1:1987", "iso-ir-100", "latin1", "l1", "csisolatin1", "ibm819", "cp819", "us-ascii", "ascii",
            "ansi_x3.4-1968":
            return (windows1252(bytes), "windows-1252")
        case "utf-16", "utf-16le": return (utf16(bytes[...], bigEndian: false), "utf-16le")
        case "utf-16be": return (utf16(bytes[...], bigEndian: true), "utf-16be")
        default:
            if let encoding = foundationEncodings[label], let text = String(bytes: bytes, encoding: encoding) {
                return (text, label)
            }
            let body = truncated ? trimmingIncompleteUTF8(bytes[...]) : bytes[...]
            if let text = String(validating: body, as: UTF8.self) { return (text, "utf-8") }
            return (windows1252(bytes), "windows-1252")
        }
    }

    /// Other encodings Foundation may convert; when it cannot, the fallback applies.
    static let foundationEncodings: [String: String.Encoding] = [
        "iso-8859-2": .isoLatin2, "latin2": .isoLatin2, "l2": .isoLatin2, "windows-1250": .windowsCP1250,
        "cp1250": .windowsCP1250, "windows-1251": .windowsCP1251, "cp1251": .windowsCP1251,
        "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254, "shift_jis": .shiftJIS,
        "shift-jis": .shiftJIS, "sjis": .shiftJIS, "x-sjis": .shiftJIS, "ms_kanji": .shiftJIS,
        "windows-31j": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP, "macintosh": .macOSRoman,
        "x-mac-roman": .macOSRoman,
    ]

    /// A charset label as written, normalized: lower case, without quotes and spaces.
    static func label(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\"'"))).lowercased()
    }

    /// The charset a `<meta>` tag near the start declares.
    static func metaCharset(in bytes: ArraySlice<UInt8>) -> String? {
        var tokenizer = HTMLTokenizer(Array(bytes))
        while let token = tokenizer.next() {
            guard case .startTag(let tag) = token, tag.name == "meta" else { continue }
            if let charset = tag.attribute("charset").map(label), !charset.isEmpty { return charset }
            if tag.attribute("http-equiv")?.lowercased() == "content-type",
                let charset = MediaType("x/x;" + (tag.attribute("content")?.split(separator: ";").dropFirst().joined(separator: ";") ?? ""))?.charset
            {
                return charset
            }
        }
        return nil
    }

    static func utf8(_ bytes: ArraySlice<UInt8>, truncated: Bool) -> String {
        String(decoding: truncated ? trimmingIncompleteUTF8(bytes) : bytes, as: UTF8.self)
    }

    /// `bytes` without a UTF-8 sequence cut short at the end (a body cut at the cap).
    static func trimmingIncompleteUTF8(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = bytes.endIndex
        var continuation = 0
        while end > bytes.startIndex, continuation < 3, bytes[end - 1] & 0xC0 == 0x80 {
            end -= 1
            continuation += 1
        }
        guard end > bytes.startIndex else { return bytes }
        let lead = bytes[end - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > 1 && continuation + 1 < length ? bytes[bytes.startIndex..<(end - 1)] : bytes
    }

    static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Windows-1252 (and so ISO-8859-1 and ASCII), which maps every byte to a character.
    static func windows1252(_ bytes: [UInt8]) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                utf8.append(byte)
            } else {
                appendUTF8(windows1252Scalar(byte), to: &utf8)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        (0x80...0x9F).contains(byte) ? UInt32(windows1252High[Int(byte) - 0x80]) : UInt32(byte)
    }

    /// What bytes 0x80…0x9F mean in Windows-1252 (the five unassigned ones map to themselves).
    static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
        0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x009D, 0x017E, 0x0178,
    ]

    static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        bytes.append(contentsOf: UTF8.encode(scalar)!)
    }
}
