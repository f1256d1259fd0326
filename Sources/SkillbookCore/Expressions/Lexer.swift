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

/// Splits the inside of one `${{ … }}` into tokens.
struct Lexer {
    private let chars: [Character]
    private var position: Int
    private var tokens: [Token] = []

    private init(chars: [Character], position: Int) {
        self.chars = chars
        self.position = position
    }

    /// Lexes from `start` (just after `${{`) up to and including the closing `}}`.
    ///
    /// Returns the tokens (the last one is `.end`) and the index just after `}}`.
    static func lex(
        _ chars: [Character], from start: Int, opening: Int
    ) throws(ExpressionError) -> (tokens: [Token], end: Int) {
        var lexer = Lexer(chars: chars, position: start)
        while true {
            guard let c = lexer.peek() else {
                throw ExpressionError("unterminated expression: '${{' without '}}'", at: opening)
            }
            if c.isWhitespace {
                lexer.position += 1
                continue
            }
            if c == "}" && lexer.peek(1) == "}" {
                lexer.add(.end, length: 2)
                return (lexer.tokens, lexer.position)
            }
            try lexer.lexToken(c)
        }
    }

    private func peek(_ ahead: Int = 0) -> Character? {
        let i = position + ahead
        return i < chars.count ? chars[i] : nil
    }

    private mutating func add(_ kind: Token.Kind, length: Int) {
        add(kind, text: chars[position..<(position + length)].text, length: length)
    }

    /// Adds a token whose text is already known.
    private mutating func add(_ kind: Token.Kind, text: String, length: Int) {
        tokens.append(Token(kind: kind, text: text, offset: position))
        position += length
    }

    private mutating func lexToken(_ c: Character) throws(ExpressionError) {
        let next = peek(1)
        switch c {
        case ".": add(.dot, length: 1)
        case "*": add(.star, length: 1)
        case ",": add(.comma, length: 1)
        case "(": add(.leftParen, length: 1)
        case ")": add(.rightParen, length: 1)
        case "[": add(.leftBracket, length: 1)
        case "]": add(.rightBracket, length: 1)
        case "-": add(.minus, length: 1)
        case "+": add(.plus, length: 1)
        case "/": add(.slash, length: 1)
        case "%": add(.percent, length: 1)
        case "?": add(.question, length: 1)
        case ":": add(.colon, length: 1)
        case "!": next == "=" ? add(.notEqual, length: 2) : add(.not, length: 1)
        case "<": next == "=" ? add(.lessOrEqual, length: 2) : add(.less, length: 1)
        case ">": next == "=" ? add(.greaterOrEqual, length: 2) : add(.greater, length: 1)
        case "=":
            guard next == "=" else { throw ExpressionError("unexpected '='; did you mean '=='?", at: position) }
            add(.equal, length: 2)
        case "&":
            guard next == "&" else { throw ExpressionError("unexpected '&'; did you mean '&&'?", at: position) }
            add(.and, length: 2)
        case "|":
            guard next == "|" else { throw ExpressionError("unexpected '|'; did you mean '||'?", at: position) }
            add(.or, length: 2)
        case "'", "\"":
            try lexString(quote: c)
        default:
            if Self.isDigit(c) {
                try lexNumber()
            } else if Self.isIdentifierStart(c) {
                lexIdentifier()
            } else {
                throw ExpressionError("unexpected '\(c)'", at: position)
            }
        }
    }

    static func isDigit(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue else { return false }
        return ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9")
    }

    static func isIdentifierStart(_ c: Character) -> Bool {
        // ASCII first: asking Unicode whether a character is a letter is slow.
        if let ascii = c.asciiValue { return ascii == UInt8(ascii: "_") || isASCIILetter(ascii) }
        return c.isLetter
    }

    static func isIdentifierPart(_ c: Character) -> Bool {
        if let ascii = c.asciiValue {
            return ascii == UInt8(ascii: "_") || isASCIILetter(ascii) || (ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9"))
        }
        return c.isLetter
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
            } else if chars[end] == "-", end + 1 < chars.count, Self.isIdentifierPart(chars[end + 1]) {
                end += 2
            } else {
                break
            }
        }
        let name = chars[position..<end].text
        add(.identifier(name), text: name, length: end - position)
    }

    private mutating func lexNumber() throws(ExpressionError) {
        var end = position
        while end < chars.count, Self.isDigit(chars[end]) { end += 1 }
        var isDecimal = false
        if end + 1 < chars.count, chars[end] == ".", Self.isDigit(chars[end + 1]) {
            isDecimal = true
            end += 1
            while end < chars.count, Self.isDigit(chars[end]) { end += 1 }
        }
        let text = chars[position..<end].text
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

    private mutating func lexString(quote: Character) throws(ExpressionError) {
        let start = position
        var i = position + 1
        var value = ""
        while i < chars.count {
            let c = chars[i]
            if c == quote {
                let text = chars[start...i].text
                tokens.append(Token(kind: .string(value), text: text, offset: start))
                position = i + 1
                return
            }
            if c == "\\" {
                guard i + 1 < chars.count else { break }
                let (scalar, length) = try escape(at: i)
                value.unicodeScalars.append(scalar)
                i += length
                continue
            }
            value.append(c)
            i += 1
        }
        throw ExpressionError("unterminated string literal", at: start)
    }

    /// The escape starting with the backslash at `i`: its character and its length.
    private func escape(at i: Int) throws(ExpressionError) -> (Unicode.Scalar, Int) {
        let c = chars[i + 1]
        switch c {
        case "n": return ("\n", 2)
        case "t": return ("\t", 2)
        case "r": return ("\r", 2)
        case "0": return ("\0", 2)
        case "\\": return ("\\", 2)
        case "'": return ("'", 2)
        case "\"": return ("\"", 2)
        case "u":
            let digits = i + 6 <= chars.count ? String(chars[(i + 2)..<(i + 6)]) : ""
            if digits.count == 4, digits.allSatisfy(\.isHexDigit), let code = UInt32(digits, radix: 16),
                let scalar = Unicode.Scalar(code)
            {
                return (scalar, 6)
            }
            throw ExpressionError("'\\u' needs four hex digits naming a character", at: i)
        default:
            throw ExpressionError("unknown escape '\\\(c)' in string literal", at: i)
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
