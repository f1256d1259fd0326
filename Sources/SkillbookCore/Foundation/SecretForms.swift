import Foundation

/// The disguises a secret is looked for in: itself, upper and lower case, and of each of these
/// base64 (with and without padding) and URL-encoded (RFC 3986 unreserved characters kept); for a multi-line
/// secret, each of its lines (trimmed) of at least `shortest` characters.
public enum SecretForms {
    /// The fewest characters a derived fragment or a line needs to be masked inside longer texts.
    public static let shortest = 4

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public static func of(_ secret: String) -> [String] {
        let cases = [secret, secret.uppercased(), secret.lowercased()]
        var forms = cases
        for text in cases {
            let base64 = Data(text.utf8).base64EncodedString()
            forms.append(base64)
            let unpadded = String(base64.reversed().drop { $0 == "=" }.reversed())
            if unpadded.count >= shortest { forms.append(unpadded) }
            if let encoded = text.addingPercentEncoding(withAllowedCharacters: unreserved) { forms.append(encoded) }
        }
        if secret.contains(where: \.isNewline) {
            for line in secret.split(whereSeparator: \.isNewline) {
                let trimmed = String(line).trimmingWhiteSpace()
                if trimmed.count >= shortest { forms.append(trimmed) }
            }
        }
        var seen: Set<String> = []
        return forms.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
