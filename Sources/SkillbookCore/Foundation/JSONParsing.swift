/// Why a text is not JSON, with the UTF-8 offset where reading stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public var description: String { "\(message) at offset \(offset)" }
}

extension JSONText {
    /// Reads JSON text back into a `Value`: object keys keep their order, integers that fit in
    /// `Int` stay `.int`, other numbers become `.double`. The inverse of `encode`.
    public static func decode(_ text: String) throws(JSONParseError) -> Value {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    static let maximumDepth = Limits.jsonDepth

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, offset: index)
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func expect(_ literal: String, _ value: Value) throws(JSONParseError) -> Value {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(literal)'") }
            index += 1
        }
        return value
    }

    /// `depth`: how many arrays and objects are open around the value; one more than
    /// `maximumDepth` (`Limits.jsonDepth`) is refused at its bracket.
    mutating func value(depth: Int) throws(JSONParseError) -> Value {
        guard index < bytes.count else { throw error("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error("arrays and objects nested deeper than \(Self.maximumDepth) levels") }
            return bytes[index] == UInt8(ascii: "{") ? try object(depth: depth) : try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> Value {
        index += 1
        var object = ValueObject()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipSpace()
            object[key] = try value(depth: depth + 1)
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> Value {
        index += 1
        var items: [Value] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    mutating func string() throws(JSONParseError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ end: Int, into scalars: inout String.UnicodeScalarView) {
            if end > runStart { scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            flush(index, into: &scalars)
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    // A surrogate pair: the low half must follow as another \u escape.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(scalar)
            default:
                throw error("invalid escape")
            }
            runStart = index
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            code = code * 16 + UInt32(digit)
            index += 1
        }
        return code
    }

    mutating func number() throws(JSONParseError) -> Value {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        guard digits() > 0 else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard digits() > 0 else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("invalid number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let int = Int(text) { return .int(int) }
        guard let double = Double(text) else { throw error("invalid number") }
        // Past a double's range the value would become infinity, which JSON cannot write back
        // (it would be written as null): refused, not silently changed.
        guard double.isFinite else {
            index = start
            throw error("number \(text.count > 40 ? text.prefix(40) + "…" : Substring(text)) is out of range (beyond ±1.8e308)")
        }
        return .double(double)
    }
}
