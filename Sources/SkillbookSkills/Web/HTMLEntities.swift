/// Character references in HTML text: `&amp;`, `&#39;`, `&#x27;`, and the named references of
/// HTML 4 plus the common HTML 5 additions.
///
/// As browsers do: the Latin-1 names and `amp lt gt quot` also work without the `;` (`&copy 2026`,
/// `&amp` in a link) — except inside an attribute when a letter, digit or `=` follows, so that
/// `?a=1&copy=2` stays as written; numeric references to 0, surrogates and beyond U+10FFFF become
/// U+FFFD, and those to 0x80…0x9F mean what Windows-1252 gives those bytes; anything unknown stays
/// as written.
enum HTMLEntities {
    static func decode(_ bytes: ArraySlice<UInt8>, inAttribute: Bool) -> String {
        guard bytes.contains(.ampersand) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == .ampersand,
                let (scalars, length) = reference(in: bytes, at: index, inAttribute: inAttribute)
            else {
                out.append(byte)
                index += 1
                continue
            }
            for scalar in scalars { TextDecoding.appendUTF8(scalar, to: &out) }
            index += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The scalars a reference starting at `start` (an `&`) stands for, and its length in bytes.
    private static func reference(
        in bytes: ArraySlice<UInt8>, at start: Int, inAttribute: Bool
    ) -> ([UInt32], Int)? {
        var index = start + 1
        guard index < bytes.endIndex else { return nil }
        if bytes[index] == .hash {
            index += 1
            var hex = false
            if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "x") {
                hex = true
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < bytes.endIndex {
                let byte = bytes[index]
                let digit: UInt32
                if byte.isASCIIDigit {
                    digit = UInt32(byte - 0x30)
                } else if hex, (0x61...0x66).contains(byte | 0x20) {
                    digit = UInt32((byte | 0x20) - 0x61 + 10)
                } else {
                    break
                }
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if index < bytes.endIndex, bytes[index] == .semicolon { index += 1 }
            return ([numeric(value)], index - start)
        }
        let nameStart = index
        while index < bytes.endIndex, bytes[index].isASCIIAlphanumeric, index - nameStart < 32 { index += 1 }
        guard index > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        if index < bytes.endIndex, bytes[index] == .semicolon, let scalar = named[name] {
            return ([scalar], index + 1 - start)
        }
        // Without `;`: the longest legacy name that the run of letters starts with.
        var length = min(index - nameStart, 6)
        while length >= 2 {
            let candidate = String(decoding: bytes[nameStart..<(nameStart + length)], as: UTF8.self)
            if legacy.contains(candidate), let scalar = named[candidate] {
                let after = nameStart + length
                if inAttribute, after < bytes.endIndex, bytes[after].isASCIIAlphanumeric || bytes[after] == .equals {
                    return nil
                }
                return ([scalar], after - start)
            }
            length -= 1
        }
        return nil
    }

    private static func numeric(_ value: UInt32) -> UInt32 {
        switch value {
        case 0, 0xD800...0xDFFF, 0x110000...: 0xFFFD
        case 0x80...0x9F: TextDecoding.windows1252Scalar(UInt8(value))
        default: value
        }
    }

    static let latin1Names =
        "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 "
        + "acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml "
        + "Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde "
        + "Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig "
        + "ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide "
        + "oslash ugrave uacute ucirc uuml yacute thorn yuml"

    static let otherNames: [String: UInt32] = [
        "quot": 34, "amp": 38, "apos": 39, "lt": 60, "gt": 62, "QUOT": 34, "AMP": 38, "LT": 60, "GT": 62,
        "COPY": 169, "REG": 174, "TRADE": 8482, "Tab": 9, "NewLine": 10, "excl": 33, "num": 35, "dollar": 36,
        "percnt": 37, "lpar": 40, "rpar": 41, "ast": 42, "plus": 43, "comma": 44, "period": 46, "sol": 47,
        "colon": 58, "semi": 59, "equals": 61, "quest": 63, "commat": 64, "lsqb": 91, "bsol": 92, "rsqb": 93,
        "Hat": 94, "lowbar": 95, "grave": 96, "lcub": 123, "verbar": 124, "vert": 124, "rcub": 125, "half": 189,
        "centerdot": 183, "OElig": 338, "oelig": 339, "Scaron": 352, "scaron": 353, "Yuml": 376, "fnof": 402,
        "circ": 710, "tilde": 732, "ensp": 8194, "emsp": 8195, "thinsp": 8201, "ZeroWidthSpace": 8203,
        "zwnj": 8204, "zwj": 8205, "lrm": 8206, "rlm": 8207, "hyphen": 8208, "dash": 8208, "ndash": 8211,
        "mdash": 8212, "lsquo": 8216, "rsquo": 8217, "sbquo": 8218, "ldquo": 8220, "rdquo": 8221, "bdquo": 8222,
        "dagger": 8224, "Dagger": 8225, "bull": 8226, "hellip": 8230, "mldr": 8230, "permil": 8240, "prime": 8242,
        "Prime": 8243, "lsaquo": 8249, "rsaquo": 8250, "oline": 8254, "frasl": 8260, "euro": 8364, "image": 8465,
        "weierp": 8472, "real": 8476, "trade": 8482, "alefsym": 8501, "larr": 8592, "uarr": 8593, "rarr": 8594,
        "darr": 8595, "harr": 8596, "crarr": 8629, "lArr": 8656, "uArr": 8657, "rArr": 8658, "dArr": 8659,
        "hArr": 8660, "leftarrow": 8592, "rightarrow": 8594, "forall": 8704, "part": 8706, "exist": 8707,
        "empty": 8709, "nabla": 8711, "isin": 8712, "notin": 8713, "ni": 8715, "prod": 8719, "sum": 8721,
        "minus": 8722, "lowast": 8727, "radic": 8730, "prop": 8733, "infin": 8734, "ang": 8736, "and": 8743,
        "or": 8744, "cap": 8745, "cup": 8746, "int": 8747, "there4": 8756, "sim": 8764, "cong": 8773,
        "asymp": 8776, "ne": 8800, "equiv": 8801, "le": 8804, "ge": 8805, "sub": 8834, "sup": 8835, "nsub": 8836,
        "sube": 8838, "supe": 8839, "oplus": 8853, "otimes": 8855, "perp": 8869, "sdot": 8901, "lceil": 8968,
        "rceil": 8969, "lfloor": 8970, "rfloor": 8971, "lang": 10216, "rang": 10217, "loz": 9674, "spades": 9824,
        "clubs": 9827, "hearts": 9829, "diams": 9830, "starf": 9733, "star": 9734, "check": 10003,
        "thetasym": 977, "upsih": 978, "piv": 982,
    ]

    static let greekNames =
        "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau "
        + "Upsilon Phi Chi Psi Omega"

    static let named: [String: UInt32] = {
        var table = otherNames
        for (offset, name) in latin1Names.split(separator: " ").enumerated() { table[String(name)] = 160 + UInt32(offset) }
        for (offset, name) in greekNames.split(separator: " ").enumerated() where name != "-" {
            table[String(name)] = 913 + UInt32(offset)
            table[name.lowercased()] = 945 + UInt32(offset)
        }
        table["sigmaf"] = 962
        return table
    }()

    /// Names that browsers also read without a `;`.
    static let legacy: Set<String> = {
        var names = Set(latin1Names.split(separator: " ").map(String.init))
        names.formUnion(["amp", "lt", "gt", "quot", "AMP", "LT", "GT", "QUOT", "COPY", "REG"])
        return names
    }()
}
