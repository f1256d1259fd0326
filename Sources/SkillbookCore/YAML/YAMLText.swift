/// Writes values as YAML text that libyaml reads back identical: strings as double-quoted
/// scalars with every character YAML would change or refuse written as an escape, collections in
/// flow style (JSON's shape). The plan checker writes playbooks with it (what `ask --save` saves).
public enum YAMLText {
    /// `s` as a YAML double-quoted scalar. Escaped: `"` and `\`, the C0 controls (`\n`, `\r`,
    /// `\t`, else `\u00XX`), DEL, the C1 controls (U+0085 NEL among them: libyaml folds it and the
    /// spaces around it into one space), the line and paragraph separators U+2028 and U+2029, the
    /// byte-order mark U+FEFF and the non-characters U+FFFE and U+FFFF (libyaml refuses those raw).
    /// The escapes are JSON's too, so the text is also a JSON string literal.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        var run = s.unicodeScalars.startIndex
        var index = run
        let scalars = s.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            guard needsEscape(scalar) else {
                index = scalars.index(after: index)
                continue
            }
            out.unicodeScalars.append(contentsOf: scalars[run..<index])
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            index = scalars.index(after: index)
            run = index
        }
        out.unicodeScalars.append(contentsOf: scalars[run..<scalars.endIndex])
        out += "\""
        return out
    }

    /// Whether `scalar` is written as an escape in a double-quoted scalar.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x22, 0x5C: true
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// `value` on one line in flow style, as JSON text with `quoted`'s escapes: `null`, `true`,
    /// numbers as `JSONText` writes them, `[a,b]`, `{"k":v}`, and `{? "k":v}` for a key over
    /// `Limits.yamlImplicitKeyBytes` (libyaml's implicit-key limit holds in flow style too).
    public static func flow(_ value: Value) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private static func write(_ value: Value, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONText.number(d)
        case .string(let s): out += quoted(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, member) in object.enumerated() {
                if i > 0 { out += "," }
                let key = quoted(member.key)
                // libyaml refuses an implicit key this long in flow style too: make it explicit.
                if key.utf8.count > Limits.yamlImplicitKeyBytes { out += "? " }
                out += key
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    /// The lines of one block-mapping entry at `indent` spaces: `"key": value`, or, for a key
    /// whose quoted form is longer than libyaml reads as an implicit key
    /// (`Limits.yamlImplicitKeyBytes`), the explicit form `? "key"` then `: value`.
    public static func blockEntry(key: String, value: Value, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        let key = quoted(key)
        let value = flow(value)
        guard key.utf8.count <= Limits.yamlImplicitKeyBytes else { return [margin + "? " + key, margin + ": " + value] }
        return [margin + key + ": " + value]
    }

    /// `s` written plain when YAML reads it back as that same string (`notes.create`,
    /// `morning-briefing`, `when_due`: an ASCII letter, then letters, digits, `_`, `-` and `.`, not
    /// a word YAML reads as a boolean or null), else `quoted(s)`. For names in generated playbooks.
    public static func scalar(_ s: String) -> String {
        guard let first = s.unicodeScalars.first, s.utf8.count <= 200,
            isASCIILetter(first),
            s.unicodeScalars.allSatisfy({ isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "." }),
            !["true", "false", "yes", "no", "on", "off", "null", "y", "n"].contains(s.lowercased())
        else { return quoted(s) }
        return s
    }

    /// One block-mapping entry at `indent` spaces with its key written by `scalar` (so explicit,
    /// `? "key"` then `: value`, when its quoted form is over `Limits.yamlImplicitKeyBytes`) and
    /// `valueText` as given: already YAML (`flow`, `quoted` or `scalar` output).
    public static func entry(key: String, valueText: String, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        let key = scalar(key)
        guard key.utf8.count <= Limits.yamlImplicitKeyBytes else { return [margin + "? " + key, margin + ": " + valueText] }
        return [margin + key + ": " + valueText]
    }

    /// `s` for a `#` comment: on one line, every character `quoted` escapes but `"` and `\`
    /// written as its escape, so a line break (U+0085, U+2028…) cannot end the comment.
    public static func comment(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            if needsEscape(scalar), scalar != "\"", scalar != "\\" {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
