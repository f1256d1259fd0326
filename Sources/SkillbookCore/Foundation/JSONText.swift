/// Writes `Value`s as JSON text, keeping object key order.
///
/// The text is measured first, then written as UTF-8 bytes straight into the string's own storage:
/// a string's bytes that need no escaping are copied as whole runs, so a large value costs one copy
/// (the text itself) rather than a step per character, a growing buffer and a copy of that.
public enum JSONText {
    /// `indent`: the depth `value` stands at in a pretty text written a part at a time (its inner
    /// lines are indented one level more; the first line is not indented).
    public static func encode(_ value: Value, pretty: Bool = false, indent: Int = 0) -> String {
        var counter = ByteCounter()
        write(value, into: &counter, pretty: pretty, indent: indent)
        return String(unsafeUninitializedCapacity: counter.count) { buffer in
            var writer = BufferWriter(buffer: buffer)
            write(value, into: &writer, pretty: pretty, indent: indent)
            return writer.count
        }
    }

    /// `value` as UTF-8 JSON bytes, written in one pass into a buffer that grows (for large answers
    /// sent as bytes: no measuring pass, no `String` in between).
    public static func bytes(_ value: Value, pretty: Bool = false) -> [UInt8] {
        var writer = GrowingWriter()
        write(value, into: &writer, pretty: pretty, indent: 0)
        return writer.finish()
    }

    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d.rounded() == d && abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    public static func quoted(_ s: String) -> String {
        var counter = ByteCounter()
        quote(s, into: &counter)
        return String(unsafeUninitializedCapacity: counter.count) { buffer in
            var writer = BufferWriter(buffer: buffer)
            quote(s, into: &writer)
            return writer.count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `s` as a JSON string literal: `"` and `\\` escaped, control characters as `\n`, `\r`, `\t`
    /// or `\u00XX`, everything else (all of Unicode) as it is.
    private static func quote(_ s: String, into out: inout some JSONOutput & ~Copyable) {
        var text = s
        text.withUTF8 { bytes in
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
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xf)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
            out.append(UInt8(ascii: "\""))
        }
    }

    private static func append(_ text: String, to out: inout some JSONOutput & ~Copyable) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    private static func write(_ value: Value, into out: inout some JSONOutput & ~Copyable, pretty: Bool, indent: Int) {
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

    /// A line break and 64 levels of indentation, of which a newline writes the part it needs.
    private static let lineBreakAndIndent: [UInt8] = [UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 128)

    private static func newline(_ out: inout some JSONOutput & ~Copyable, pretty: Bool, indent: Int) {
        guard pretty else { return }
        newline(&out, indent: indent)
    }

    /// A line break and `indent` levels of two spaces.
    static func newline(_ out: inout some JSONOutput & ~Copyable, indent: Int) {
        lineBreakAndIndent.withUnsafeBufferPointer { line in
            var left = 1 + 2 * indent
            out.append(contentsOf: UnsafeBufferPointer(rebasing: line[0..<min(left, line.count)]))
            left -= line.count
            while left > 0 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: line[1..<min(left + 1, line.count)]))
                left -= line.count - 1
            }
        }
    }
}

/// Where `JSONText` writes bytes: a counter (to size the text), then the text's storage.
protocol JSONOutput: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

/// Counts the bytes written.
struct ByteCounter: JSONOutput {
    private(set) var count = 0
    mutating func append(_ byte: UInt8) { count += 1 }
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) { count += bytes.count }
}

/// Writes into a buffer that `ByteCounter` sized: never past its end.
struct BufferWriter: JSONOutput {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func append(_ byte: UInt8) {
        precondition(count < buffer.count, "JSON text longer than measured")
        buffer[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= buffer.count, "JSON text longer than measured")
        (buffer.baseAddress! + count).update(from: source, count: bytes.count)
        count += bytes.count
    }
}

/// Appends to memory of its own that doubles when full (no uniqueness or bounds checks of an array
/// per byte); `finish` hands the bytes over as an array and frees it. Not copyable: the memory has
/// one owner, freed once (by `finish`, or by `deinit` when the writer is dropped unfinished).
struct GrowingWriter: JSONOutput, ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        var grown = capacity * 2
        while grown < count + more { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// The bytes written; the writer's memory is freed.
    consuming func finish() -> [UInt8] {
        let bytes = Array(UnsafeBufferPointer(start: base, count: count))
        base.deallocate()
        discard self
        return bytes
    }

    deinit { base.deallocate() }
}
