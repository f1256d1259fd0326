/// JSON text in the form `JSONText.encode` writes compactly — no spaces, its own escapes and number
/// forms, no key twice in an object — checked and re-indented without being decoded. What reads
/// stored values only to write them out again (`runs show --json` of a big run) passes such texts
/// through: `pretty(text, indent:)` of a text `isCanonical` accepts is byte for byte
/// `JSONText.encode(JSONText.decode(text), pretty: true, indent:)`, at a fraction of the cost.
/// Any other text has to go the long way (decoded, then encoded).
public enum CanonicalJSON {
    /// Whether `text` is valid JSON that `JSONText.encode(JSONText.decode(text))` writes back
    /// unchanged. Conservative: an object of more than `objectKeysChecked` keys is not accepted
    /// (its keys would cost too much to compare for duplicates), nor is anything the decoder refuses.
    public static func isCanonical(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var checker = CanonicalChecker(bytes: bytes)
            return checker.value(depth: 0) && checker.index == bytes.count
        }
    }

    /// How many keys of one object `isCanonical` compares for duplicates; more and the text is not
    /// accepted as canonical.
    public static let objectKeysChecked = 64

    /// `text`, which `isCanonical` accepts, as `JSONText.encode(_:pretty: true, indent:)` writes its
    /// value: a line break and two spaces per level after each opening bracket of a non-empty array
    /// or object, after each comma between items and before each closing bracket; `": "` between a
    /// key and its value. Strings are copied as they are.
    public static func pretty(_ text: String, indent: Int) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var counter = ByteCounter()
            reindent(bytes, indent: indent, into: &counter)
            return String(unsafeUninitializedCapacity: counter.count) { buffer in
                var writer = BufferWriter(buffer: buffer)
                reindent(bytes, indent: indent, into: &writer)
                return writer.count
            }
        }
    }

    /// `pretty(text, indent:)` appended to `out`.
    public static func pretty(_ text: String, indent: Int, into out: inout [UInt8]) {
        var output = ArrayOutput()
        swap(&output.bytes, &out)
        defer { swap(&output.bytes, &out) }
        var text = text
        text.withUTF8 { bytes in reindent(bytes, indent: indent, into: &output) }
    }

    private static func reindent(_ bytes: UnsafeBufferPointer<UInt8>, indent: Int, into out: inout some JSONOutput & ~Copyable) {
        var depth = indent
        var index = 0
        var start = 0  // the first byte not yet copied
        let count = bytes.count
        func copy(upTo end: Int, _ out: inout some JSONOutput & ~Copyable) {
            if end > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end])) }
        }
        while index < count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                // To the closing quote; an escape's second byte is never a quote that ends it.
                index += 1
                while bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let closing = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if bytes[index + 1] == closing {
                    index += 2
                    continue
                }
                index += 1
                copy(upTo: index, &out)
                depth += 1
                JSONText.newline(&out, indent: depth)
                start = index
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                copy(upTo: index, &out)
                depth -= 1
                JSONText.newline(&out, indent: depth)
                start = index
                index += 1
            case UInt8(ascii: ","):
                index += 1
                copy(upTo: index, &out)
                JSONText.newline(&out, indent: depth)
                start = index
            case UInt8(ascii: ":"):
                index += 1
                copy(upTo: index, &out)
                out.append(UInt8(ascii: " "))
                start = index
            default:
                index += 1
            }
        }
        copy(upTo: count, &out)
    }
}

/// Appends to an array.
private struct ArrayOutput: JSONOutput {
    var bytes: [UInt8] = []
    mutating func append(_ byte: UInt8) { bytes.append(byte) }
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) { self.bytes.append(contentsOf: bytes) }
}

/// Walks a text as `JSONText.decode` reads it, accepting only what `JSONText.encode` writes.
private struct CanonicalChecker {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The keys of the objects open, innermost last: where each is in `bytes`, and whether it is all ASCII.
    var keys: [(range: Range<Int>, ascii: Bool)] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func at(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
    }

    /// `depth`: how many arrays and objects are open around the value (the decoder refuses more
    /// than `Limits.jsonDepth`).
    mutating func value(depth: Int) -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return depth < Limits.jsonDepth && object(depth: depth)
        case UInt8(ascii: "["): return depth < Limits.jsonDepth && array(depth: depth)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return false
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += length
        return true
    }

    private mutating func object(depth: Int) -> Bool {
        index += 1
        if at(UInt8(ascii: "}")) {
            index += 1
            return true
        }
        let first = keys.count
        defer { keys.removeSubrange(first...) }
        while true {
            guard at(UInt8(ascii: "\"")), keys.count - first < CanonicalJSON.objectKeysChecked else { return false }
            let start = index
            guard let ascii = string() else { return false }
            let key = (range: start..<index, ascii: ascii)
            for earlier in keys[first...] where same(earlier, key) { return false }
            keys.append(key)
            guard at(UInt8(ascii: ":")) else { return false }
            index += 1
            guard value(depth: depth + 1) else { return false }
            if at(UInt8(ascii: ",")) {
                index += 1
            } else if at(UInt8(ascii: "}")) {
                index += 1
                return true
            } else {
                return false
            }
        }
    }

    /// Whether two keys (quoted, as written) are the same key to `ValueObject`: the same bytes, or,
    /// when either has a character beyond ASCII, equal strings (Unicode canonical equivalence).
    private func same(_ one: (range: Range<Int>, ascii: Bool), _ other: (range: Range<Int>, ascii: Bool)) -> Bool {
        if one.ascii && other.ascii {
            return bytes[one.range].elementsEqual(bytes[other.range])
        }
        func key(_ range: Range<Int>) -> Value? {
            try? JSONText.decode(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }
        return key(one.range) == key(other.range)
    }

    private mutating func array(depth: Int) -> Bool {
        index += 1
        if at(UInt8(ascii: "]")) {
            index += 1
            return true
        }
        while true {
            guard value(depth: depth + 1) else { return false }
            if at(UInt8(ascii: ",")) {
                index += 1
            } else if at(UInt8(ascii: "]")) {
                index += 1
                return true
            } else {
                return false
            }
        }
    }

    /// A string with only the escapes the writer uses (`\"`, `\\`, `\n`, `\r`, `\t`, and `\u00xx` in
    /// lower case for the other control characters) and no raw control character; whether it is
    /// all ASCII, or `nil` when it is not canonical.
    private mutating func string() -> Bool? {
        index += 1
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return ascii
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 5 < bytes.count, bytes[index + 2] == UInt8(ascii: "0"), bytes[index + 3] == UInt8(ascii: "0"),
                        let high = Self.hexDigit(bytes[index + 4]), high < 2, let low = Self.hexDigit(bytes[index + 5])
                    else { return nil }
                    let code = high << 4 | low
                    guard code != 0x0A, code != 0x0D, code != 0x09 else { return nil }
                    index += 6
                default:
                    return nil
                }
            case 0..<0x20:
                return nil
            default:
                if byte >= 0x80 { ascii = false }
                index += 1
            }
        }
        return nil
    }

    /// A lower-case hexadecimal digit's value (the writer writes no upper case).
    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// An integer as `String(Int)` writes it, or a number the decoder reads as a double that
    /// `JSONText.number` writes back the same.
    private mutating func number() -> Bool {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return false }
        } else {
            while isDigit(index) { index += 1 }
        }
        var integral = true
        if at(UInt8(ascii: ".")) {
            integral = false
            index += 1
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        if at(UInt8(ascii: "e")) || at(UInt8(ascii: "E")) {
            integral = false
            index += 1
            if at(UInt8(ascii: "+")) || at(UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<index])
        let negative = token[0] == UInt8(ascii: "-")
        if integral {
            if negative && token.count == 2 && token[1] == UInt8(ascii: "0") { return false }  // -0 is written 0
            if token.count - (negative ? 1 : 0) <= 18 { return true }  // fits in an Int, written as it is
            let text = String(decoding: token, as: UTF8.self)
            return Int(text).map(String.init) == text
        }
        let text = String(decoding: token, as: UTF8.self)
        guard let double = Double(text), double.isFinite else { return false }
        return JSONText.number(double) == text
    }
}
