/// One token of an expression; `offset` is a character offset in the template text.
struct Token: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case identifier(String)
        case integer(Int)
        case decimal(Double)
        case string(String)
        case dot, star, comma, leftParen, rightParen, leftBracket, rightBracket
        case not, minus, plus, slash, percent, question, colon
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case and, or
        /// The closing `}}`.
        case end
    }

    var kind: Kind
    var text: String
    var offset: Int

    /// How the token reads in an `unexpected '…'` message.
    var quoted: String {
        kind == .end ? "end of expression" : "'\(text)'"
    }
}

/// A unit of template text the lexer walks: a `Character`, or one byte of text that is all ASCII
/// without a carriage return (then bytes and characters are one to one, and so are their offsets).
protocol LexUnit: Equatable {
    /// The unit's ASCII value; `nil` for anything else.
    var ascii: UInt8? { get }
    /// White space as `Character.isWhitespace` reads it.
    var isSpace: Bool { get }
    /// A letter that is not ASCII (`Character.isLetter`), which may start or continue a name.
    var isOtherLetter: Bool { get }
    /// The units as one string.
    static func text(_ units: ArraySlice<Self>) -> String
    /// Appends the unit to `string`.
    static func append(_ unit: Self, to string: inout String)
}

extension Character: LexUnit {
    var ascii: UInt8? { asciiValue }
    var isSpace: Bool { isWhitespace }
    var isOtherLetter: Bool { !isASCII && isLetter }
    static func text(_ units: ArraySlice<Character>) -> String { units.text }
    static func append(_ unit: Character, to string: inout String) { string.append(unit) }
}

extension UInt8: LexUnit {
    var ascii: UInt8? { self < 0x80 ? self : nil }
    var isSpace: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
    var isOtherLetter: Bool { false }
    static func text(_ units: ArraySlice<UInt8>) -> String { String(decoding: units, as: UTF8.self) }
    static func append(_ unit: UInt8, to string: inout String) { string.unicodeScalars.append(Unicode.Scalar(unit)) }
}

/// Splits the inside of one `${{ … }}` into tokens.
struct Lexer<Unit: LexUnit> {
    private let chars: [Unit]
    private var position: Int
    private var tokens: [Token] = []

    private init(chars: [Unit], position: Int) {
        self.chars = chars
        self.position = position
    }

    /// Lexes from `start` (just after `${{`) up to and including the closing `}}`.
    ///
    /// Returns the tokens (the last one is `.end`) and the index just after `}}`.
    static func lex(_ chars: [Unit], from start: Int, opening: Int) throws(ExpressionError) -> (tokens: [Token], end: Int) {
        var lexer = Lexer(chars: chars, position: start)
        while true {
            guard let c = lexer.peek() else {
                throw ExpressionError("unterminated expression: '${{' without '}}'", at: opening)
            }
            if c.isSpace {
                lexer.position += 1
                continue
            }
            if c.ascii == UInt8(ascii: "}") && lexer.peek(1)?.ascii == UInt8(ascii: "}") {
                lexer.add(.end, length: 2)
                return (lexer.tokens, lexer.position)
            }
            try lexer.lexToken(c)
        }
    }

    private func peek(_ ahead: Int = 0) -> Unit? {
        let i = position + ahead
        return i < chars.count ? chars[i] : nil
    }

    private mutating func add(_ kind: Token.Kind, length: Int) {
        add(kind, text: Unit.text(chars[position..<(position + length)]), length: length)
    }

    /// Adds a token whose text is already known.
    private mutating func add(_ kind: Token.Kind, text: String, length: Int) {
        tokens.append(Token(kind: kind, text: text, offset: position))
        position += length
    }

    private mutating func lexToken(_ c: Unit) throws(ExpressionError) {
        let next = peek(1)?.ascii
        let equals = next == UInt8(ascii: "=")
        switch c.ascii {
        case UInt8(ascii: "."): add(.dot, length: 1)
        case UInt8(ascii: "*"): add(.star, length: 1)
        case UInt8(ascii: ","): add(.comma, length: 1)
        case UInt8(ascii: "("): add(.leftParen, length: 1)
        case UInt8(ascii: ")"): add(.rightParen, length: 1)
        case UInt8(ascii: "["): add(.leftBracket, length: 1)
        case UInt8(ascii: "]"): add(.rightBracket, length: 1)
        case UInt8(ascii: "-"): add(.minus, length: 1)
        case UInt8(ascii: "+"): add(.plus, length: 1)
        case UInt8(ascii: "/"): add(.slash, length: 1)
        case UInt8(ascii: "%"): add(.percent, length: 1)
        case UInt8(ascii: "?"): add(.question, length: 1)
        case UInt8(ascii: ":"): add(.colon, length: 1)
        case UInt8(ascii: "!"): equals ? add(.notEqual, length: 2) : add(.not, length: 1)
        case UInt8(ascii: "<"): equals ? add(.lessOrEqual, length: 2) : add(.less, length: 1)
        case UInt8(ascii: ">"): equals ? add(.greaterOrEqual, length: 2) : add(.greater, length: 1)
        case UInt8(ascii: "="):
            guard equals else { throw ExpressionError("unexpected '='; did you mean '=='?", at: position) }
            add(.equal, length: 2)
        case UInt8(ascii: "&"):
            guard next == UInt8(ascii: "&") else { throw ExpressionError("unexpected '&'; did you mean '&&'?", at: position) }
            add(.and, length: 2)
        case UInt8(ascii: "|"):
            guard next == UInt8(ascii: "|") else { throw ExpressionError("unexpected '|'; did you mean '||'?", at: position) }
            add(.or, length: 2)
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            try lexString(quote: c)
        default:
            if Self.isDigit(c) {
                try lexNumber()
            } else if Self.isIdentifierStart(c) {
                lexIdentifier()
            } else {
                throw ExpressionError("unexpected '\(Unit.text([c][...]))'", at: position)
            }
        }
    }

    static func isDigit(_ c: Unit) -> Bool {
        guard let ascii = c.ascii else { return false }
        return ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9")
    }

    static func isIdentifierStart(_ c: Unit) -> Bool {
        // ASCII first: asking Unicode whether a character is a letter is slow.
        if let ascii = c.ascii { return ascii == UInt8(ascii: "_") || isASCIILetter(ascii) }
        return c.isOtherLetter
    }

    static func isIdentifierPart(_ c: Unit) -> Bool {
        if let ascii = c.ascii {
            return ascii == UInt8(ascii: "_") || isASCIILetter(ascii) || (ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9"))
        }
        return c.isOtherLetter
    }

    private static func isASCIILetter(_ ascii: UInt8) -> Bool {
        (ascii >= UInt8(ascii: "a") && ascii <= UInt8(ascii: "z")) || (ascii >= UInt8(ascii: "A") && ascii <= UInt8(ascii: "Z"))
    }

    /// Names may contain `-` between other name characters (`steps.fetch-pages`), as step ids do.
    private mutating func lexIdentifier() {
        var end = position + 1
        while end < chars.count {
            if Self.isIdentifierPart(chars[end]) {
                end += 1
            } else if chars[end].ascii == UInt8(ascii: "-"), end + 1 < chars.count, Self.isIdentifierPart(chars[end + 1]) {
                end += 2
            } else {
                break
            }
        }
        let name = Unit.text(chars[position..<end])
        add(.identifier(name), text: name, length: end - position)
    }

    private mutating func lexNumber() throws(ExpressionError) {
        var end = position
        while end < chars.count, Self.isDigit(chars[end]) { end += 1 }
        var isDecimal = false
        if end + 1 < chars.count, chars[end].ascii == UInt8(ascii: "."), Self.isDigit(chars[end + 1]) {
            isDecimal = true
            end += 1
            while end < chars.count, Self.isDigit(chars[end]) { end += 1 }
        }
        let text = Unit.text(chars[position..<end])
        if isDecimal {
            guard let value = Double(text), value.isFinite else {
                throw ExpressionError("number '\(text)' is too large", at: position)
            }
            add(.decimal(value), text: text, length: end - position)
        } else {
            guard let value = Int(text) else {
                throw ExpressionError("number '\(text)' is too large", at: position)
            }
            add(.integer(value), text: text, length: end - position)
        }
    }

    private mutating func lexString(quote: Unit) throws(ExpressionError) {
        let start = position
        var i = position + 1
        var value = ""
        while i < chars.count {
            let c = chars[i]
            if c == quote {
                let text = Unit.text(chars[start...i])
                tokens.append(Token(kind: .string(value), text: text, offset: start))
                position = i + 1
                return
            }
            if c.ascii == UInt8(ascii: "\\") {
                guard i + 1 < chars.count else { break }
                let (scalar, length) = try escape(at: i)
                value.unicodeScalars.append(scalar)
                i += length
                continue
            }
            Unit.append(c, to: &value)
            i += 1
        }
        throw ExpressionError("unterminated string literal", at: start)
    }

    /// The escape starting with the backslash at `i`: its character and its length.
    private func escape(at i: Int) throws(ExpressionError) -> (Unicode.Scalar, Int) {
        let c = chars[i + 1]
        switch c.ascii {
        case UInt8(ascii: "n"): return ("\n", 2)
        case UInt8(ascii: "t"): return ("\t", 2)
        case UInt8(ascii: "r"): return ("\r", 2)
        case UInt8(ascii: "0"): return ("\0", 2)
        case UInt8(ascii: "\\"): return ("\\", 2)
        case UInt8(ascii: "'"): return ("'", 2)
        case UInt8(ascii: "\""): return ("\"", 2)
        case UInt8(ascii: "u"):
            let digits = i + 6 <= chars.count ? Unit.text(chars[(i + 2)..<(i + 6)]) : ""
            if digits.count == 4, digits.allSatisfy(\.isHexDigit), let code = UInt32(digits, radix: 16),
                let scalar = Unicode.Scalar(code)
            {
                return (scalar, 6)
            }
            throw ExpressionError("'\\u' needs four hex digits naming a character", at: i)
        default:
            throw ExpressionError("unknown escape '\\\(Unit.text([c][...]))' in string literal", at: i)
        }
    }
}

extension ArraySlice<Character> {
    /// The characters as one string, built from their UTF-8 at once (appending them one by one is slow).
    var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for character in self { bytes.append(contentsOf: character.utf8) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
