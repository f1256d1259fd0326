public import Foundation

/// A file's bytes as text: UTF-8, or a diagnostic at the first byte that is not.
public enum SourceText {
    /// The text of `data`, and an error naming `file`, the line and column and the byte offset of
    /// the first invalid byte when `data` is not UTF-8 (the text then has U+FFFD in place of each
    /// bad sequence, so the line can still be shown).
    public static func decode(_ data: Data, file: String) -> (text: String, problem: Diagnostic?) {
        if let text = String(data: data, encoding: .utf8) { return (text, nil) }
        let bytes = [UInt8](data)
        let offset = firstInvalidByte(in: bytes) ?? 0
        let prefix = String(decoding: bytes[..<offset], as: UTF8.self)
        let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false)
        let location = SourceLocation(file: file, line: lines.count, column: (lines.last?.count ?? 0) + 1)
        let byte = String(bytes[offset], radix: 16, uppercase: true)
        let problem = Diagnostic.error(
            "not UTF-8 text: byte 0x\(byte.count == 1 ? "0" : "")\(byte) at byte offset \(offset) is not valid UTF-8",
            at: location, hint: "save the file as UTF-8")
        return (String(decoding: bytes, as: UTF8.self), problem)
    }

    /// The offset of the first byte that does not begin or continue a valid UTF-8 sequence.
    public static func firstInvalidByte(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return index
            }
            for continuation in 1..<length {
                guard index + continuation < bytes.count else { return index }
                let byte = bytes[index + continuation]
                let (min, max) = continuation == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= min, byte <= max else { return index }
            }
            index += length
        }
        return nil
    }
}
