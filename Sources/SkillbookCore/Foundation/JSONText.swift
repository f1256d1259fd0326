/// Writes `Value`s as JSON text, keeping object key order.
///
/// The text is written as UTF-8 bytes into one buffer: a string's bytes that need no escaping are
/// copied as whole runs, so a large value costs a copy or two rather than a step per character.
public enum JSONText {
    public static func encode(_ value: Value, pretty: Bool = false) -> String {
        var out: [UInt8] = []
        write(value, into: &out, pretty: pretty, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d.rounded() == d && abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        quote(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `s` as a JSON string literal: `"` and `\\` escaped, control characters as `\n`, `\r`, `\t`
    /// or `\u00XX`, everything else (all of Unicode) as it is.
    private static func quote(_ s: String, into out: inout [UInt8]) {
        var text = s
        text.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + 2)
            out.append(UInt8(ascii: "\""))
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: Array("u00".utf8))
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xf)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
            out.append(UInt8(ascii: "\""))
        }
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    private static func write(_ value: Value, into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: append("null", to: &out)
        case .bool(let b): append(b ? "true" : "false", to: &out)
        case .int(let i): append(String(i), to: &out)
        case .double(let d): append(number(d), to: &out)
        case .string(let s): quote(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                append("[]", to: &out)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, pretty: pretty, indent: indent + 1)
                write(item, into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(&out, pretty: pretty, indent: indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                append("{}", to: &out)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, pretty: pretty, indent: indent + 1)
                quote(member.key, into: &out)
                append(pretty ? ": " : ":", to: &out)
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(&out, pretty: pretty, indent: indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { append("  ", to: &out) }
    }
}
