import Foundation
import SkillbookSystem
import SkillbookCore

/// `web.summary`: the title, description, first paragraph and links of a web page.
///
/// Reads at most `maxPageBytes` of the page. HTML (and XHTML) pages are summarized from their
/// markup (see `PageSummary`); plain text gives its first paragraph; a response without a content
/// type is treated as HTML when it starts with `<`, else as text. Anything else (PDF, images, JSON,
/// feeds) is refused with an error naming the type, rather than summarized as garbage.
struct WebSummarySkill: Skill {
    let environment: SkillEnvironment

    static let maxPageBytes = 5 << 20

    let descriptor = SkillDescriptor(
        id: "web.summary",
        title: "Summarize a web page",
        summary: "Reads a web page (http or https, following at most 5 redirects, at most 5 MiB of it) and returns "
            + "{ url, status, title, description, first_paragraph, links_count, links, language, truncated }: the "
            + "final address, the page's title, its meta description, its first paragraph of text, how many links "
            + "it has and the first max_links of them, and its declared language; a missing field is empty. A "
            + "status other than 2xx, a timeout, or a document that is not HTML or text fails with a clear error.",
        examples: [
            "summarize {url}", "give me a summary of {url}", "summarize this web page", "what is on {url}", "what is at {url}",
            "give me the headline of this article", "what is this link about", "总结{url}", "总结这个网页",
            "{url}讲了什么", "网页摘要", "get the title of {url}", "what is the title of {url}", "look up the title of {url}", "获取{url}的标题",
        ],
        tags: ["web", "read"],
        kind: .query,
        parameters: .object(
            [
                "url": .string("The address of the page (http or https).", minLength: 1, format: "uri"),
                "max_links": .integer(
                    "List at most this many of the page's links (links_count counts them all).", minimum: 0,
                    maximum: 500, default: 10),
                "timeout": WebSupport.timeoutParameter,
            ],
            required: ["url"]),
        output: .object(
            [
                "url": .string("The page's address after redirects.", format: "uri"),
                "status": .integer("The HTTP status (2xx).", minimum: 200, maximum: 299),
                "title": .string("The page title (else og:title, else the first heading); empty if none."),
                "description": .string("The meta description (else og:description); empty if none."),
                "first_paragraph": .string("The first paragraph of text, at most 1000 characters; empty if none."),
                "links_count": .integer("How many links to web pages the page has.", minimum: 0),
                "links": .array(
                    .object(
                        [
                            "url": .string("The link's address, resolved against the page.", format: "uri"),
                            "text": .string("The link's text."),
                        ],
                        required: ["url", "text"]),
                    "The first max_links distinct links, in page order."),
                "language": .string("The page's declared language, such as en or de-CH; empty if none."),
                "truncated": .boolean("Whether the page was longer than 5 MiB and only its start was read."),
            ],
            required: [
                "url", "status", "title", "description", "first_paragraph", "links_count", "links", "language",
                "truncated",
            ]),
        timeout: 130,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let url = try WebSupport.webURL(parameters["url"]?.stringValue ?? "")
        let request = HTTPRequest(
            url: url, method: "GET",
            headers: [
                HTTPHeader("User-Agent", WebSupport.userAgent),
                HTTPHeader("Accept", "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5"),
            ],
            timeout: parameters["timeout"]?.doubleValue ?? 30, maxBodyBytes: Self.maxPageBytes)
        let response = try await WebSupport.send(request, with: environment.http)
        guard response.isSuccess else { throw SkillError(WebSupport.statusMessage(request, response)) }
        try Task.checkCancellation()

        let bytes = [UInt8](response.body)
        let media = MediaType(response.header("content-type"))
        let summary: PageSummary
        switch Self.kind(of: media, bytes: bytes) {
        case .html:
            let text = TextDecoding.decode(bytes, declared: media?.charset, html: true, truncated: response.truncated)
            summary = try await PageSummary.html(
                text.text, url: response.url, maxLinks: parameters["max_links"]?.intValue ?? 10)
        case .plainText:
            let text = TextDecoding.decode(bytes, declared: media?.charset, html: false, truncated: response.truncated)
            summary = PageSummary.plainText(text.text)
        case .other(let type):
            throw SkillError(
                "\(response.url.displayString) is \(type), not a web page; web.summary reads HTML and plain text "
                    + "(web.fetch returns any response as it is)")
        }
        var language = summary.language
        if language.isEmpty, let header = response.header("content-language") {
            language = String(header.prefix { $0 != "," }).trimmingCharacters(in: .whitespaces)
        }
        return [
            "url": .string(response.url.absoluteString),
            "status": .int(response.status),
            "title": .string(summary.title),
            "description": .string(summary.description),
            "first_paragraph": .string(summary.firstParagraph),
            "links_count": .int(summary.linksCount),
            "links": .array(summary.links.map { ["url": .string($0.url), "text": .string($0.text)] }),
            "language": .string(language),
            "truncated": .bool(response.truncated),
        ]
    }

    enum DocumentKind: Equatable {
        case html
        case plainText
        case other(String)
    }

    /// What to read the body as: from its content type, or from its first bytes when there is none
    /// (or a meaningless `application/octet-stream`).
    static func kind(of media: MediaType?, bytes: [UInt8]) -> DocumentKind {
        if let media, media.type != "application/octet-stream" {
            if media.isHTML { return .html }
            if media.isPlainText { return .plainText }
            return .other(media.type)
        }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, bytes[start].isHTMLSpace { start += 1 }
        if start < bytes.count, bytes[start] == .lessThan { return .html }
        if bytes.prefix(1024).contains(0) { return .other(media?.type ?? "binary data without a content type") }
        return .plainText
    }
}
