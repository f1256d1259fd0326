/// The paths and web addresses a request names, as it writes them. The answer schema holds a
/// path (or address) parameter's literal to one of them or a path that extends one
/// (`/tmp/project` → `/tmp/project.tar.gz`, `/tmp/backup` → `/tmp/backup/notes.txt`): a small model
/// otherwise drops a leading `/` or invents a folder. A request that names none leaves such
/// parameters free.
public struct RequestValues: Sendable, Equatable {
    /// Words that read as paths (`readsAsPath`): they start with `/`, `~/`, `./` or `../`, name a
    /// file with a known extension (`todo.txt`), or a folder with a trailing `/`; web addresses are
    /// not among them.
    public var paths: [String]
    /// `http://` and `https://` addresses.
    public var addresses: [String]
    /// Addresses of other schemes (`smtp://127.0.0.1:2525`, `smtps://mail.example.com:465`): a
    /// `format: uri` parameter may start with them too, so a mail server is not held to a web page.
    public var otherAddresses: [String]
    /// Mail addresses (`ana@example.com`): a `format: email` parameter is one of them when the
    /// request names any.
    public var emails: [String]

    public init(paths: [String] = [], addresses: [String] = [], otherAddresses: [String] = [], emails: [String] = []) {
        self.paths = paths
        self.addresses = addresses
        self.otherAddresses = otherAddresses
        self.emails = emails
    }

    /// The values of `request`: its words split at spaces and at Chinese characters, with the
    /// punctuation around them trimmed.
    public init(_ request: String) {
        self = Self.recent.answer(request, Self.reading)
    }

    private static let recent = RecentAnswers<RequestValues>()

    private static func reading(_ request: String) -> RequestValues {
        var paths: [String] = []
        var addresses: [String] = []
        var otherAddresses: [String] = []
        var emails: [String] = []
        for word in Self.words(request) {
            let lowered = word.lowercased()
            if TextFolding.webStarts.contains(where: lowered.hasPrefix) {
                if word.count > 8, !addresses.contains(word) { addresses.append(word) }
            } else if Self.hasScheme(word) {
                if !otherAddresses.contains(word) { otherAddresses.append(word) }
            } else if Self.isEmail(word) {
                if !emails.contains(word) { emails.append(word) }
            } else if let address = Self.bareAddress(word) {
                if !addresses.contains(address) { addresses.append(address) }
            } else if Self.readsAsPath(word), !paths.contains(word) {
                paths.append(word)
            }
        }
        return RequestValues(paths: paths, addresses: addresses, otherAddresses: otherAddresses, emails: emails)
    }

    /// The values a parameter of `format` may start with: paths for `path`, addresses for `uri`;
    /// empty (the parameter stays free) for other formats or when the request names none.
    public func prefixes(for format: String?) -> [String] {
        switch format {
        case "path": paths
        case "uri": addresses + otherAddresses
        case "email": emails
        default: []
        }
    }

    /// `scheme://rest` with a scheme of letters, digits, `+`, `-` or `.` after a letter, and
    /// something after the `//`; no `"` or `\\`, which a pattern over JSON text cannot hold as written.
    static func hasScheme(_ word: String) -> Bool {
        guard let range = word.firstRange(of: "://"), range.upperBound < word.endIndex,
            !word.contains("\""), !word.contains("\\")
        else { return false }
        let scheme = word[..<range.lowerBound]
        return scheme.first?.isLetter == true && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// `local@domain.tld`: one `@`, a non-empty local part, and a domain with a dot inside.
    static func isEmail(_ word: String) -> Bool {
        let parts = word.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !word.contains("\""), !word.contains("\\"), !word.contains("/") else { return false }
        let domain = parts[1]
        guard let dot = domain.lastIndex(of: "."), dot != domain.startIndex, domain.index(after: dot) < domain.endIndex else { return false }
        return domain.allSatisfy { $0.isLetter || $0.isNumber || "-.".contains($0) }
    }

    static func words(_ request: String) -> [String] {
        var words: [String] = []
        var word = ""
        func flush() {
            let trimmed = word.trimmingEdges(of: Self.edges)
            if !trimmed.isEmpty { words.append(trimmed) }
            word = ""
        }
        // A path goes on in Chinese after a `/` ("/tmp/日记/今天.txt", "~/下载"), up to a word that
        // starts the rest of the sentence ("/tmp/日记然后…", "/tmp/照片里的…").
        var inPath = false
        for c in request {
            let folded = TextFolding.foldWidth(c)
            if TextFolding.isCJK(folded), let last = word.last, Self.isPathStart(word),
                last == "/" || (inPath && TextFolding.isCJK(last) && !Self.sentenceStarts.contains(folded))
            {
                inPath = true
                word.append(folded)
            } else if folded.isWhitespace || TextFolding.isCJK(folded) || "，。、；：“”「」（）".contains(c) {
                flush()
                inPath = false
            } else {
                word.append(folded)
            }
        }
        flush()
        return words
    }

    /// Whether a word begins as a path does: `/`, `~/`, `./`, `../`.
    static func isPathStart(_ word: String) -> Bool {
        ["/", "~/", "./", "../"].contains(where: word.hasPrefix)
    }

    /// Chinese characters that end a path running on in Chinese when they follow one of its
    /// Chinese characters: the rest of the sentence (然后, 再, 并, 里, 的, 中, 下, 和, 到 …).
    static let sentenceStarts: Set<Character> = [
        "然", "再", "并", "接", "里", "的", "中", "下", "和", "到", "移", "复", "保", "写", "发", "打", "删", "后", "去",
    ]

    static let edges: Set<Character> = [
        ",", ".", ";", ":", "!", "?", "\"", "'", "(", ")", "[", "]", "<", ">",
    ]

    /// Top-level domains a bare `example.com/page` is read with (as `https://example.com/page`);
    /// any other `name.ext` is a file name.
    static let domains: Set<String> = [
        "com", "org", "net", "io", "dev", "app", "ai", "co", "cn", "de", "uk", "fr", "jp", "edu", "gov",
        "info",
    ]

    static func bareAddress(_ word: String) -> String? {
        guard let address = PatternMatcher.url(word) else { return nil }
        let host = word.prefix { $0 != "/" }
        guard let tld = host.split(separator: ".").last, Self.domains.contains(tld.lowercased()) else {
            return nil
        }
        return address
    }

    /// File extensions a `name.ext` or `folder/name.ext` word is read as a path by.
    static let extensions: Set<String> = [
        "txt", "md", "markdown", "json", "yaml", "yml", "toml", "ini", "conf", "cfg", "csv", "tsv", "log", "pdf", "doc",
        "docx", "xls", "xlsx", "ppt", "pptx", "html", "htm", "xml", "png", "jpg", "jpeg", "gif", "svg", "webp", "mp3",
        "mp4", "mov", "zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "sh", "py", "swift", "js", "ts", "rb", "go", "rs",
        "c", "h", "cpp", "sql", "db", "sqlite", "ics", "eml", "bak",
    ]

    /// A word that is a path: it starts with `/`, `~/`, `./` or `../`; or it names a file with a
    /// known extension (`todo.txt`, `notes/today.md`), or a folder with a trailing `/` (`backup/`).
    /// Not `and/or`, `24/7`, `e.g.`, `Node.js`, `bob@example.com`; nor a word with `"` or `\`,
    /// which a pattern over JSON text cannot hold as written.
    static func readsAsPath(_ word: String) -> Bool {
        guard !word.contains("@"), !word.contains("\""), !word.contains("\\") else { return false }
        if TextFolding.pathStarts.contains(where: word.hasPrefix) {
            return word.contains(where: { $0.isLetter || $0.isNumber })
        }
        if word.hasSuffix("/"), word.dropLast().allSatisfy({ $0.isLetter || $0.isNumber || "_-./".contains($0) }) {
            return word.count > 1 && word.first?.isLetter == true
        }
        guard let dot = word.lastIndex(of: "."), dot != word.startIndex else { return false }
        let ext = word[word.index(after: dot)...].lowercased()
        let name = word[..<dot]
        return Self.extensions.contains(ext) && !name.hasSuffix("/") && name.allSatisfy { !$0.isWhitespace }
            && !(ext == "js" && name.split(separator: "/").last.map { $0.first?.isUppercase == true } == true)
    }
}

extension String {
    /// The string without the characters of `set` at its ends.
    func trimmingEdges(of set: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
