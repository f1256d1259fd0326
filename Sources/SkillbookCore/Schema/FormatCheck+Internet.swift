import Foundation

/// `uri` (RFC 3986) and `email` (RFC 5321 `Mailbox`), with the IP address forms both use.
extension FormatCheck {
    private static let unreserved = Set("-._~")
    private static let subDelims = Set("!$&'()*+,;=")
    private static let atext = Set("!#$%&'*+-/=?^_`{|}~")

    private static func isAlnum(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber) }

    /// `unreserved / pct-encoded / sub-delims / extra` for every character, escapes well formed.
    private static func isEncoded(_ s: Substring, allowing extra: Set<Character>) -> Bool {
        var index = s.startIndex
        while index < s.endIndex {
            let c = s[index]
            if c == "%" {
                let hex = s[s.index(after: index)...].prefix(2)
                guard hex.count == 2, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return false }
                index = s.index(index, offsetBy: 3)
                continue
            }
            guard isAlnum(c) || unreserved.contains(c) || subDelims.contains(c) || extra.contains(c) else { return false }
            index = s.index(after: index)
        }
        return true
    }

    /// RFC 3986 `URI`: `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
    static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ isAlnum($0) || "+-.".contains($0) })
        else { return false }
        var rest = text[text.index(after: colon)...]
        if let hash = rest.firstIndex(of: "#") {
            guard isEncoded(rest[rest.index(after: hash)...], allowing: Set(":@/?")) else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            guard isEncoded(rest[rest.index(after: question)...], allowing: Set(":@/?")) else { return false }
            rest = rest[..<question]
        }
        var path = rest
        if rest.hasPrefix("//") {
            let authority = rest.dropFirst(2).prefix { $0 != "/" }
            guard isAuthority(authority) else { return false }
            path = rest.dropFirst(2 + authority.count)
        }
        return isEncoded(path, allowing: Set(":@/"))
    }

    /// `[ userinfo "@" ] host [ ":" port ]`.
    private static func isAuthority(_ authority: Substring) -> Bool {
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            guard isEncoded(authority[..<at], allowing: [":"]) else { return false }
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return false }
            host = hostPort[...close]
            let literal = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            guard isIPv6(literal) || isIPvFuture(literal) else { return false }
            let after = hostPort[hostPort.index(after: close)...]
            return after.isEmpty || (after.first == ":" && after.dropFirst().allSatisfy(\.isASCIIDigit))
        }
        if let colon = hostPort.lastIndex(of: ":") {
            guard hostPort[hostPort.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return false }
            host = hostPort[..<colon]
        }
        return isEncoded(host, allowing: [])
    }

    private static func isIPvFuture(_ s: Substring) -> Bool {
        guard s.first == "v" || s.first == "V", let dot = s.firstIndex(of: ".") else { return false }
        let version = s[s.index(after: s.startIndex)..<dot]
        let rest = s[s.index(after: dot)...]
        return !version.isEmpty && version.allSatisfy { $0.isASCII && $0.isHexDigit } && !rest.isEmpty
            && rest.allSatisfy { isAlnum($0) || unreserved.contains($0) || subDelims.contains($0) || $0 == ":" }
    }

    /// Dotted decimal, each part 0–255 without leading zeros (RFC 3986 `dec-octet`).
    static func isIPv4(_ s: Substring) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy(\.isASCIIDigit) && Int(part)! <= 255
                    && (part.count == 1 || part.first != "0")
            }
    }

    /// Eight groups of 1–4 hex digits, `::` once for a run of zero groups, an IPv4 address as the
    /// last two groups.
    static func isIPv6(_ s: Substring) -> Bool {
        guard !s.isEmpty else { return false }
        let halves = s.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        var groups = 0
        for (position, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                let isLast = position == halves.count - 1 && index == parts.count - 1
                if isLast, part.contains(".") {
                    guard isIPv4(part) else { return false }
                    groups += 2
                } else {
                    guard (1...4).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return false }
                    groups += 1
                }
            }
        }
        return halves.count == 2 ? groups < 8 : groups == 8
    }

    /// RFC 5321 `Mailbox`: a dot-atom or quoted local part, `@`, a domain or an address literal.
    static func isEmail(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        return isLocalPart(local) && (isDomain(domain) || isAddressLiteral(domain))
    }

    private static func isLocalPart(_ s: Substring) -> Bool {
        if s.hasPrefix("\"") {
            guard s.count >= 2, s.hasSuffix("\"") else { return false }
            var escaped = false
            for scalar in s.dropFirst().dropLast().unicodeScalars {
                let v = scalar.value
                if escaped {
                    guard (32...126).contains(v) else { return false }
                    escaped = false
                } else if v == 92 {
                    escaped = true
                } else if !((32...33).contains(v) || (35...91).contains(v) || (93...126).contains(v)) {
                    return false
                }
            }
            return !escaped
        }
        let atoms = s.split(separator: ".", omittingEmptySubsequences: false)
        return atoms.allSatisfy { atom in !atom.isEmpty && atom.allSatisfy { isAlnum($0) || atext.contains($0) } }
    }

    /// Labels of letters, digits and inner hyphens, separated by dots.
    private static func isDomain(_ s: Substring) -> Bool {
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            guard let first = label.first, let last = label.last else { return false }
            return isAlnum(first) && isAlnum(last) && label.allSatisfy { isAlnum($0) || $0 == "-" }
        }
    }

    /// `[1.2.3.4]`, `[IPv6:…]`, or a general `[tag:text]` literal.
    private static func isAddressLiteral(_ s: Substring) -> Bool {
        guard s.hasPrefix("["), s.hasSuffix("]"), s.count > 2 else { return false }
        let inner = s.dropFirst().dropLast()
        if inner.hasPrefix("IPv6:") { return isIPv6(inner.dropFirst(5)) }
        if let colon = inner.firstIndex(of: ":") {
            let tag = inner[..<colon]
            let content = inner[inner.index(after: colon)...]
            return isDomain(tag) && !content.isEmpty
                && content.unicodeScalars.allSatisfy { (33...90).contains($0.value) || (94...126).contains($0.value) }
        }
        let parts = inner.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { (1...3).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) && Int($0)! <= 255 }
    }
}
