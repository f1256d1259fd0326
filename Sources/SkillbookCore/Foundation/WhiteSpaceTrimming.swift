extension String {
    /// The text without the white space at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` removes (Unicode's White_Space: tabs,
    /// line breaks, spaces of every width; and, as Foundation does, the zero-width space U+200B),
    /// or with `keepingLineBreaks` what `.whitespaces` removes (the same without line feed,
    /// vertical tab, form feed, carriage return, U+0085, U+2028 and U+2029).
    ///
    /// Foundation's version bridges through `NSString` and a character set; its first call in a
    /// process made the runtime scan the binary's conformance records (~0.3 M instructions), which
    /// every `validate` and run paid for a duration or a cron line.
    public func trimmingWhiteSpace(keepingLineBreaks: Bool = false) -> String {
        self[...].trimmingWhiteSpace(keepingLineBreaks: keepingLineBreaks)
    }
}

extension Substring {
    /// See `String.trimmingWhiteSpace(keepingLineBreaks:)`.
    public func trimmingWhiteSpace(keepingLineBreaks: Bool = false) -> String {
        let scalars = unicodeScalars
        func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x20, 0x09: true
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: !keepingLineBreaks
            case 0..<0x80: false
            case 0x200B: true  // ZERO WIDTH SPACE: not White_Space, but in Foundation's sets
            default: scalar.properties.isWhitespace
            }
        }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) })!
        // From the scalars, not by slicing the text: a mark after a trimmed space begins the
        // result, though it shared a character with the space.
        return String(scalars[first...last])
    }
}
