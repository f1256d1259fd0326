import Foundation
import SkillbookCore
import SkillbookSystem

/// What `web.summary` reports about a page, read in one pass over its tokens.
///
/// - title: `<title>` (not one inside inline SVG/MathML), else `og:title`, else `twitter:title`,
///   else the first `<h1>`;
/// - description: `<meta name="description">`, else `og:description`, else `twitter:description`;
/// - first paragraph: the first `<p>` with text that is not inside `nav`, `header`, `footer`,
///   `aside` or `form` (else the first one there); a `<p>` left open ends where the next block
///   starts, as in browsers;
/// - links: `<a href>` that lead to a web page (http or https, relative ones resolved against the
///   page or its `<base href>`), not same-page `#` anchors; every one counts, the list keeps the
///   first `maxLinks` distinct addresses;
/// - language: `<html lang>`, else `<meta http-equiv="Content-Language">`.
///
/// All text has its references decoded and its white space collapsed. Empty when absent.
struct PageSummary: Equatable {
    struct Link: Equatable {
        var url: String
        var text: String
    }

    var title = ""
    var description = ""
    var firstParagraph = ""
    var language = ""
    var linksCount = 0
    var links: [Link] = []

    /// Longest first paragraph, in characters; longer ones are cut at a word and end with `…`.
    static let paragraphLimit = 1000
    static let linkTextLimit = 200

    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "details", "dialog", "dd", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
        "hr", "html", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "ul",
    ]
    static let chromeElements: Set<String> = ["nav", "header", "footer", "aside", "form"]
    static let foreignElements: Set<String> = ["svg", "math"]

    /// Reads a page. A big page takes a while, so this checks for cancellation and lets other tasks
    /// run every few thousand tokens.
    static func html(_ text: String, url: URL, maxLinks: Int) async throws -> PageSummary {
        var reader = Reader(url: url, maxLinks: maxLinks)
        var tokenizer = HTMLTokenizer(Array(text.utf8))
        var count = 0
        while let token = tokenizer.next() {
            count += 1
            if count % 4096 == 0 {
                try Task.checkCancellation()
                await Task.yield()
            }
            switch token {
            case .startTag(let tag): reader.start(tag)
            case .endTag(let name): reader.end(name)
            case .text(let range): reader.text { tokenizer.text(range) }
            case .literal(let range): reader.text { tokenizer.literal(range) }
            }
        }
        return reader.finish()
    }

    /// A plain-text document: its first paragraph (up to a blank line).
    static func plainText(_ text: String) -> PageSummary {
        var summary = PageSummary()
        var paragraph: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                if !paragraph.isEmpty { break }
            } else {
                paragraph.append(line)
                if paragraph.count > 200 { break }
            }
        }
        summary.firstParagraph = clipped(collapsed(paragraph.joined(separator: " ")), to: paragraphLimit)
        return summary
    }

    /// Runs of white space (Unicode's, so no-break spaces too) as one space, trimmed.
    static func collapsed(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        return out
    }

    static func clipped(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        var cut = text.prefix(limit)
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            cut = cut[..<space]
        }
        return cut + "…"
    }

    /// A text being collected, up to a number of bytes.
    private struct Capture {
        var text = ""
        let limit: Int

        mutating func append(_ more: String) {
            guard text.utf8.count < limit else { return }
            text += more
        }

        var value: String { PageSummary.collapsed(text) }
    }

    private struct Reader {
        let url: URL
        let maxLinks: Int
        var summary = PageSummary()

        var titleText: String?
        var title: Capture?
        var h1Text: String?
        var h1: Capture?
        var paragraph: Capture?
        var paragraphInChrome = false
        var paragraphOutside: String?
        var paragraphInside: String?
        var link: (url: String, capture: Capture)?
        var linkURLs: Set<String> = []
        var metas: [String: String] = [:]
        var htmlLanguage: String?
        var base: URL?
        var chromeDepth = 0
        var foreignDepth = 0

        init(url: URL, maxLinks: Int) {
            self.url = url
            self.maxLinks = maxLinks
        }

        var capturing: Bool { title != nil || h1 != nil || paragraph != nil || link != nil }

        mutating func text(_ decode: () -> String) {
            guard capturing else { return }
            let text = decode()
            title?.append(text)
            h1?.append(text)
            paragraph?.append(text)
            link?.capture.append(text)
        }

        mutating func start(_ tag: HTMLTokenizer.Tag) {
            endTitle()
            let name = tag.name
            if PageSummary.blockElements.contains(name) { endParagraph() }
            switch name {
            case "html":
                if htmlLanguage == nil { htmlLanguage = tag.attribute("lang") ?? tag.attribute("xml:lang") }
            case "title":
                if titleText == nil, foreignDepth == 0 { title = Capture(limit: 4096) }
            case "meta":
                meta(tag)
            case "base":
                if base == nil, let href = tag.attribute("href") { base = PageSummary.resolve(href, against: url) }
            case "p":
                paragraph = Capture(limit: PageSummary.paragraphLimit * 8)
                paragraphInChrome = chromeDepth > 0
            case "h1":
                if h1Text == nil { h1 = Capture(limit: 4096) }
            case "a":
                endLink()
                if let href = tag.attribute("href") { startLink(href) }
            case "br", "img", "wbr":
                text { " " }
            default:
                break
            }
            if !tag.selfClosing {
                if PageSummary.chromeElements.contains(name) { chromeDepth += 1 }
                if PageSummary.foreignElements.contains(name) { foreignDepth += 1 }
            }
        }

        mutating func end(_ name: String) {
            endTitle()
            if PageSummary.blockElements.contains(name) { endParagraph() }
            if name == "h1", let h1 {
                let text = h1.value
                if !text.isEmpty { h1Text = text }
                self.h1 = nil
            }
            if name == "a" { endLink() }
            if PageSummary.chromeElements.contains(name) { chromeDepth = max(0, chromeDepth - 1) }
            if PageSummary.foreignElements.contains(name) { foreignDepth = max(0, foreignDepth - 1) }
        }

        mutating func endTitle() {
            guard let title else { return }
            titleText = title.value
            self.title = nil
        }

        mutating func endParagraph() {
            guard let paragraph else { return }
            self.paragraph = nil
            let text = paragraph.value
            guard !text.isEmpty else { return }
            if paragraphInChrome {
                if paragraphInside == nil { paragraphInside = text }
            } else if paragraphOutside == nil {
                paragraphOutside = text
            }
        }

        mutating func startLink(_ href: String) {
            let href = href.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !href.isEmpty, !href.hasPrefix("#"), PageSummary.isWebLink(href) else { return }
            summary.linksCount += 1
            guard summary.links.count < maxLinks, let resolved = PageSummary.resolve(href, against: base ?? url) else {
                return
            }
            let address = resolved.absoluteString
            guard !linkURLs.contains(address) else { return }
            link = (address, Capture(limit: PageSummary.linkTextLimit * 4))
        }

        mutating func endLink() {
            guard let link else { return }
            self.link = nil
            guard summary.links.count < maxLinks, linkURLs.insert(link.url).inserted else { return }
            summary.links.append(Link(url: link.url, text: PageSummary.clipped(link.capture.value, to: PageSummary.linkTextLimit)))
        }

        mutating func meta(_ tag: HTMLTokenizer.Tag) {
            guard let content = tag.attribute("content").map(PageSummary.collapsed), !content.isEmpty else { return }
            for key in [tag.attribute("name"), tag.attribute("property"), tag.attribute("http-equiv")] {
                guard let key = key?.lowercased(), metas[key] == nil else { continue }
                metas[key] = content
            }
        }

        mutating func finish() -> PageSummary {
            endTitle()
            endParagraph()
            endLink()
            if let h1, h1Text == nil { h1Text = h1.value }
            let candidates = [titleText, metas["og:title"], metas["twitter:title"], h1Text]
            summary.title = candidates.compactMap { $0 }.first { !$0.isEmpty } ?? ""
            summary.description =
                [metas["description"], metas["og:description"], metas["twitter:description"]]
                .compactMap { $0 }.first ?? ""
            summary.firstParagraph = PageSummary.clipped(
                paragraphOutside ?? paragraphInside ?? "", to: PageSummary.paragraphLimit)
            let language =
                htmlLanguage.map(PageSummary.collapsed).flatMap { $0.isEmpty ? nil : $0 }
                ?? metas["content-language"].map { String($0.prefix { $0 != "," }) }
            summary.language = language?.trimmingCharacters(in: .whitespaces) ?? ""
            return summary
        }
    }

    /// Whether an `href` leads to a web page: relative, or with an http or https scheme.
    static func isWebLink(_ href: String) -> Bool {
        var scheme = ""
        for character in href {
            if character == ":" {
                let lower = scheme.lowercased()
                return lower == "http" || lower == "https"
            }
            guard character.isASCII, character.isLetter || character.isNumber || "+-.".contains(character) else {
                return true
            }
            scheme.append(character)
        }
        return true
    }

    /// `href` resolved against `base`; spaces and other characters not allowed in URLs are encoded.
    static func resolve(_ href: String, against base: URL) -> URL? {
        let cleaned = href.trimmingCharacters(in: .whitespacesAndNewlines).filter { $0 != "\n" && $0 != "\t" && $0 != "\r" }
        return HTTPRedirects.resolve(cleaned, against: base)
    }
}
