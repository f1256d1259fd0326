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
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
            || first == UInt8(ascii: ".") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        else { return .string(text) }
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
    var isASCIIDigit: Bool { isASCII && isNumber }
}
