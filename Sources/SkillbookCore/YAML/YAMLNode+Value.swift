extension YAMLNode {
    /// The plain value of this node: scalars resolved by YAML 1.2's core schema
    /// (`null`, `true`/`false`, integers, floats; quoted scalars are always strings).
    public var value: Value {
        switch content {
        case .scalar(let text, let style):
            return YAMLScalarResolver.resolve(text, style: style, tag: tag)
        case .sequence(let items):
            return .array(items.map(\.value))
        case .mapping(let pairs):
            var object = ValueObject()
            for pair in pairs {
                let key = pair.key.scalar ?? pair.key.value.interpolatedText
                if object[key] == nil { object[key] = pair.value.value }
            }
            return .object(object)
        }
    }
}

/// Resolves a scalar's text to a typed value by YAML 1.2's core schema.
public enum YAMLScalarResolver {
    public static func resolve(_ text: String, style: YAMLNode.ScalarStyle, tag: String?) -> Value {
        switch tag {
        case "tag:yaml.org,2002:str": return .string(text)
        case "tag:yaml.org,2002:int":
            if case .int(let i) = resolvePlain(text) { return .int(i) }
            return .string(text)
        case "tag:yaml.org,2002:float":
            switch resolvePlain(text) {
            case .int(let i): return .double(Double(i))
            case .double(let d): return .double(d)
            default: return .string(text)
            }
        case "tag:yaml.org,2002:bool":
            if case .bool(let b) = resolvePlain(text) { return .bool(b) }
            return .string(text)
        case "tag:yaml.org,2002:null": return .null
        default: break
        }
        guard style == .plain, tag == nil || tag == "!" else { return .string(text) }
        return resolvePlain(text)
    }

    public static func resolvePlain(_ text: String) -> Value {
        // Most plain scalars are words (keys, names): none of the special forms below starts
        // with a letter other than n, N, t, T, f or F, or is longer than 6 bytes.
        let utf8 = text.utf8
        if let first = utf8.first, utf8.count > 6 || !Self.mayBeSpecial(first) {
            return Self.isNumberStart(first) ? number(text) : .string(text)
        }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        guard let first = utf8.first, isNumberStart(first) else { return .string(text) }
        return number(text)
    }

    /// Whether a scalar starting with `byte` may be `~`, null, a boolean, an infinity or NaN.
    private static func mayBeSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"),
            UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    private static func isNumberStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// An integer (decimal, 0x, 0o) or a float, else the text.
    private static func number(_ text: String) -> Value {
        if isDecimalInteger(text), let i = Int(text) { return .int(i) }
        let digits = text.dropFirst(2)
        if text.hasPrefix("0x"), digits.allSatisfy(\.isHexDigit), let i = Int(digits, radix: 16) { return .int(i) }
        if text.hasPrefix("0o"), digits.allSatisfy(\.isASCIIDigit), let i = Int(digits, radix: 8) { return .int(i) }
        if isFloat(text), let d = Double(text) { return .double(d) }
        return .string(text)
    }

    private static func isDecimalInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit)
    }

    /// `[-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
    private static func isFloat(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let intDigits = rest.prefix { $0.isASCIIDigit }
        rest = rest.dropFirst(intDigits.count)
        var fracDigits = Substring("")
        if rest.first == "." {
            rest = rest.dropFirst()
            fracDigits = rest.prefix { $0.isASCIIDigit }
            rest = rest.dropFirst(fracDigits.count)
        }
        guard !intDigits.isEmpty || !fracDigits.isEmpty else { return false }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            let exponent = rest.prefix { $0.isASCIIDigit }
            guard !exponent.isEmpty else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }
}

extension Character {
    /// 0 to 9 (without the Unicode property lookup of `isNumber`).
    var isASCIIDigit: Bool {
        guard let value = asciiValue else { return false }
        return value >= UInt8(ascii: "0") && value <= UInt8(ascii: "9")
    }
}
