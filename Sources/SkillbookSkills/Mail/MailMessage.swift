import Foundation

/// A plain-text mail as it goes over SMTP (RFC 5322 and MIME): the header fields, then the text,
/// lines ending in CRLF. A subject that is not ASCII is an RFC 2047 encoded word; a text that is
/// not ASCII, or has a line over 998 bytes, is sent base64-encoded, so the mail never needs the
/// server's 8BITMIME.
struct MailMessage {
    var from: String
    var to: [String]
    var subject: String
    var text: String
    var date: Date
    var messageID: String

    /// The bytes to send after DATA (libcurl stuffs dots and adds the final `.`).
    var bytes: Data {
        var lines = [
            "Date: \(Self.rfc5322Date(date))",
            "From: \(from)",
            "To: \(to.joined(separator: ", "))",
            "Subject: \(Self.encodedHeader(subject))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
        ]
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let body: [String]
        if normalised.utf8.allSatisfy({ $0 < 0x80 }) && normalised.split(separator: "\n").allSatisfy({ $0.utf8.count <= 998 }) {
            lines.append("Content-Transfer-Encoding: 7bit")
            body = normalised.components(separatedBy: "\n")
        } else {
            lines.append("Content-Transfer-Encoding: base64")
            body = Self.wrapped(Data(normalised.utf8).base64EncodedString(), width: 76)
        }
        return Data((lines + [""] + body).joined(separator: "\r\n").appending("\r\n").utf8)
    }

    /// `Subject` text as is when it is printable ASCII, else one or more `=?UTF-8?B?…?=` words.
    static func encodedHeader(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return text }
        // An encoded word is at most 75 characters: 45 bytes of UTF-8 per word, whole characters only.
        var words: [String] = []
        var chunk = ""
        for character in text {
            if chunk.utf8.count + String(character).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(width)))
            rest = rest.dropFirst(width)
        }
        return lines
    }

    /// `Wed, 02 Dec 2026 17:40:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
