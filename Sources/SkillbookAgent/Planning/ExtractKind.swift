import Foundation

/// A well-known kind of text a request asks to pull out of a text — phone numbers, e-mail
/// addresses, links, amounts of money, dates, IP addresses — with lines that hold one in its
/// usual forms and a pattern that finds them all. Models write patterns for one form only (a US
/// phone number, `金额: (\d+)` for "找出金额" over an English invoice) or anchor them so that they
/// find nothing in a line of other text; `RegexLint` tries a plan's pattern on these lines.
enum ExtractKind: String, CaseIterable, Sendable {
    case phoneNumber = "phone numbers"
    case emailAddress = "e-mail addresses"
    case link = "links"
    case amount = "amounts of money"
    case date = "dates"
    case ipAddress = "IP addresses"

    /// The kind the request asks for, when it names exactly one: English words ("phone numbers",
    /// "e-mails", "the total") or Chinese ones ("电话", "邮箱", "金额").
    static func asked(in request: String) -> ExtractKind? {
        let lowered = request.lowercased()
        var words = Set(lowered.split { !$0.isLetter }.map(String.init))
        if lowered.contains("e-mail") { words.insert("email") }
        if lowered.contains("ip address") || lowered.contains("ip地址") || lowered.contains("ip 地址") { words.insert("ip") }
        let named = allCases.filter { kind in
            !words.isDisjoint(with: kind.englishWords) || kind.chineseWords.contains(where: request.contains)
        }
        return named.count == 1 ? named[0] : nil
    }

    private var englishWords: Set<String> {
        switch self {
        case .phoneNumber: ["phone", "phones", "telephone", "telephones"]
        case .emailAddress: ["email", "emails"]
        case .link: ["link", "links", "url", "urls"]
        case .amount: ["amount", "amounts", "price", "prices", "total", "totals", "cost", "costs"]
        case .date: ["date", "dates"]
        case .ipAddress: ["ip", "ips"]
        }
    }

    private var chineseWords: [String] {
        switch self {
        case .phoneNumber: ["电话", "手机号"]
        case .emailAddress: ["邮箱", "邮件地址", "电子邮件"]
        case .link: ["链接", "网址"]
        case .amount: ["金额", "价格", "总额", "总价", "费用"]
        case .date: ["日期"]
        case .ipAddress: []
        }
    }

    /// Lines of other text, each holding one of the kind in a usual form: the line and that value.
    var samples: [(line: String, value: String)] {
        switch self {
        case .phoneNumber:
            [
                ("Anna <anna@example.com> +49 30 1234567", "+49 30 1234567"), ("Office: (555) 123-4567", "(555) 123-4567"),
                ("call 555-123-4567 today", "555-123-4567"), ("Li Wei, +86 10 87654321", "+86 10 87654321"),
                ("Bob: 030 7654321", "030 7654321"), ("手机 138 0013 8000", "138 0013 8000"),
            ]
        case .emailAddress:
            [
                ("Anna Schmidt <anna@example.com> +49 30 1234567", "anna@example.com"),
                ("write to li.wei@example.cn today", "li.wei@example.cn"), ("Bob: bob.m+news@mail.example.org, 030", "bob.m+news@mail.example.org"),
                ("联系 wang_fang@example.com.cn 即可", "wang_fang@example.com.cn"),
            ]
        case .link:
            [
                ("see https://example.com/docs?page=2 for more", "https://example.com/docs?page=2"),
                ("Home: http://example.org", "http://example.org"), ("(https://swift.org/download/)", "https://swift.org/download/"),
            ]
        case .amount:
            [
                ("Total: 56.70 EUR", "56.70"), ("Amount due: $1,234.56", "1,234.56"), ("金额：128.50 元", "128.50"),
                ("Summe 99,90 €", "99,90"),
            ]
        case .date:
            [
                ("Date: 2026-11-28", "2026-11-28"), ("due 28.11.2026 at noon", "28.11.2026"), ("on 11/28/2026 we met", "11/28/2026"),
                ("日期：2026年11月28日", "2026年11月28日"),
            ]
        case .ipAddress:
            [
                ("INFO start from 10.0.0.5", "10.0.0.5"), ("slow request from 192.168.1.20 (GET /)", "192.168.1.20"),
                ("peer=172.16.254.1:443", "172.16.254.1"),
            ]
        }
    }

    /// A pattern (no capture groups) that finds every sample's value.
    var pattern: String {
        switch self {
        case .phoneNumber: #"\+?\(?\d[\d ()./-]{5,}\d"#
        case .emailAddress: #"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"#
        case .link: #"https?://[^\s<>"')\]]+[^\s<>"')\].,;]"#
        case .amount: #"\d[\d,]*[.,]\d{2}\b"#
        case .date: #"\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4}|\d{4}年\d{1,2}月\d{1,2}日"#
        case .ipAddress: #"\b(?:\d{1,3}\.){3}\d{1,3}\b"#
        }
    }

    /// Whether `pattern` (taking `group` of each match) finds at least half of the samples: a
    /// match that overlaps the sample's value counts, so a pattern of whole lines holding the kind
    /// finds it too. A pattern that does not compile, or has no such group, finds none.
    func finds(_ pattern: String, group: Int = 0) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern), group >= 0, group <= regex.numberOfCaptureGroups else { return false }
        let found = samples.filter { line, value in
            let text = NSString(string: line)
            let wanted = text.range(of: value)
            return regex.matches(in: line, range: NSRange(location: 0, length: text.length)).contains { match in
                let range = match.range(at: group)
                return range.location != NSNotFound && range.length > 0 && NSIntersectionRange(range, wanted).length > 0
            }
        }
        return 2 * found.count >= samples.count
    }
}
