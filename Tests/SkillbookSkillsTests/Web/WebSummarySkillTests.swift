import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookTesting
import Testing

@Suite struct WebSummarySkillTests {
    static let article = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Local elections: turnout hits a record &#8211; City Gazette</title>
        <meta name="viewport" content="width=device-width">
        <meta name="description" content="Turnout in Tuesday&#39;s vote was the highest since 1998.">
        <script type="application/ld+json">{"headline": "<p>not a paragraph</p>"}</script>
        <script>window.dataLayer = []; if (a < b && c > d) {}</script>
        </head>
        <body class=article>
        <div id=cookie-banner><form><p>We use cookies.</p><button>OK</button></form></div>
        <header class="site"><a href="/"><img src="/logo.svg" alt="City Gazette"></a>
          <nav><ul><li><a href="/news">News</a><li><a href="/sport">Sport</a></ul></nav></header>
        <article>
          <h1>Turnout hits a record</h1>
          <p class=byline>
          <p>Voters turned out in record numbers on Tuesday, with queues outside
          polling stations from 7&nbsp;a.m. &ndash; officials said 71% had voted.
          <p>More text follows.</p>
          <p>See <a href="/results?ward=all&amp;year=2026">the full results</a>.</p>
        </article>
        <footer><p>&copy; 2026 City Gazette</p><a href="mailto:desk@gazette.example">Contact</a></footer>
        </body>
        </html>
        """

    @Test func summarizesARealWorldShapedArticle() async throws {
        try await withWeb { web, server in
            server.route("/news/elections", .html(Self.article))
            let url = server.url("/news/elections")
            let output = try await web.run("web.summary", ["url": .string(url)])
            #expect(
                output == [
                    "url": .string(url), "status": 200,
                    "title": "Local elections: turnout hits a record – City Gazette",
                    "description": "Turnout in Tuesday's vote was the highest since 1998.",
                    "first_paragraph":
                        "Voters turned out in record numbers on Tuesday, with queues outside polling stations from 7 a.m. – officials said 71% had voted.",
                    "links_count": 4,
                    "links": [
                        ["url": .string(server.url("/")), "text": ""],
                        ["url": .string(server.url("/news")), "text": "News"],
                        ["url": .string(server.url("/sport")), "text": "Sport"],
                        ["url": .string(server.url("/results?ward=all&year=2026")), "text": "the full results"],
                    ],
                    "language": "en", "truncated": false,
                ])
        }
    }

    @Test func oldStylePagesWithUppercaseTagsAndNoClosingTags() async throws {
        try await withWeb { web, server in
            let html = """
                <HTML>
                <HEAD><TITLE>Bob's Home Page</TITLE>
                <META NAME=DESCRIPTION CONTENT=Hobbies>
                <BODY BGCOLOR=white>
                <CENTER><H1>Welcome!</H1></CENTER>
                <P>This is my page about <A HREF=trains.html>trains</A> &amp; <A HREF=boats.html>boats
                <P>Under construction
                <HR>
                <A HREF="http://example.com/guestbook.cgi?sign=1">Sign my guestbook
                """
            server.route("/~bob/", .html(html, charset: nil))
            let output = try await web.run("web.summary", ["url": .string(server.url("/~bob/"))])
            #expect(output["title"] == "Bob's Home Page")
            #expect(output["description"] == "Hobbies")
            #expect(output["first_paragraph"] == "This is my page about trains & boats")
            #expect(output["links_count"] == 3)
            #expect(output["links"]?.arrayValue?.first?["url"] == .string(server.url("/~bob/trains.html")))
            #expect(output["language"] == "")
        }
    }

    @Test func openGraphFallbacksAndTheContentLanguageHeader() async throws {
        try await withWeb { web, server in
            let html = """
                <head><meta property="og:title" content="Shared title"><meta property="og:description" content="Shared description"></head>
                <div class=app></div>
                """
            server.route("/spa", LocalHTTPServer.Response.html(html).adding(header: "Content-Language", "de-CH, en"))
            let output = try await web.run("web.summary", ["url": .string(server.url("/spa"))])
            #expect(output["title"] == "Shared title")
            #expect(output["description"] == "Shared description")
            #expect(output["first_paragraph"] == "")
            #expect(output["links_count"] == 0)
            #expect(output["language"] == "de-CH")
        }
    }

    static let windows1252Body: [UInt8] =
        Array("<html><head><title>Caf".utf8) + [0xE9] + Array(" ".utf8) + [0x93] + Array("Chez Lou".utf8) + [0x94]
        + Array("</title></head><body><p>Men".utf8) + [0xFC] + Array(" ab 9 ".utf8) + [0x80] + Array(" ".utf8) + [0x96]
        + Array(" t".utf8) + [0xE4, 0x67, 0x6C, 0x69, 0x63, 0x68] + Array("</p></body></html>".utf8)

    @Test func windows1252FromTheHeaderFromMetaOrFromNothing() async throws {
        try await withWeb { web, server in
            let body = Self.windows1252Body
            server.route("/header", .bytes(body, contentType: "text/html; charset=windows-1252"))
            server.route("/latin1", .bytes(body, contentType: "text/html; charset=ISO-8859-1"))
            server.route("/meta", .bytes(Array("<meta charset=\"windows-1252\">".utf8) + body, contentType: "text/html"))
            server.route(
                "/http-equiv",
                .bytes(
                    Array("<META HTTP-EQUIV=Content-Type CONTENT=\"text/html; charset=iso-8859-1\">".utf8) + body,
                    contentType: "text/html"))
            server.route("/undeclared", .bytes(body, contentType: "text/html"))
            server.route("/unknown", .bytes(body, contentType: "text/html; charset=x-no-such-charset"))
            for path in ["/header", "/latin1", "/meta", "/http-equiv", "/undeclared", "/unknown"] {
                let output = try await web.run("web.summary", ["url": .string(server.url(path))])
                #expect(output["title"] == "Café “Chez Lou”", "\(path)")
                #expect(output["first_paragraph"] == "Menü ab 9 € – täglich", "\(path)")
            }
        }
    }

    @Test func utf8WithoutDeclarationAndWithABOM() async throws {
        try await withWeb { web, server in
            let html = "<title>Zürich – 東京 👋</title><p>ok"
            server.route("/plain", .bytes(Array(html.utf8), contentType: "text/html"))
            server.route("/bom", .bytes([0xEF, 0xBB, 0xBF] + Array(html.utf8), contentType: "text/html; charset=iso-8859-1"))
            server.route("/none", .bytes(Array(html.utf8), contentType: nil))
            for path in ["/plain", "/bom", "/none"] {
                let output = try await web.run("web.summary", ["url": .string(server.url(path))])
                #expect(output["title"] == "Zürich – 東京 👋", "\(path)")
            }
        }
    }

    @Test func hugePagesAreReadOnlyUpToTheCap() async throws {
        try await withWeb { web, server in
            let head = Array("<html><head><title>Endless</title></head><body><p>Start here.</p>".utf8)
            let row = Array("<div><a href=\"/x\">x</a> filler filler filler filler filler filler</div>\n".utf8)
            server.route(
                "/huge",
                LocalHTTPServer.Response(
                    headers: [("Content-Type", "text/html; charset=utf-8")],
                    body: .repeating(row, count: 20 << 20, after: head)))
            let start = Date()
            let output = try await web.run("web.summary", ["url": .string(server.url("/huge")), "max_links": 2])
            #expect(output["title"] == "Endless")
            #expect(output["first_paragraph"] == "Start here.")
            #expect(output["truncated"] == true)
            let links = try #require(output["links_count"]?.intValue)
            // Only the first 5 MiB were read: about 5 MiB / 73 bytes of rows.
            #expect(links > 70_000 && links < 73_000, "\(links)")
            #expect(output["links"]?.arrayValue?.count == 1)  // one distinct address
            #expect(Date().timeIntervalSince(start) < 60)
        }
    }

    @Test func followsRedirectsToThePage() async throws {
        try await withWeb { web, server in
            server.route("/short", .redirect(to: "/long/article", status: 301))
            server.route("/long/article", .html("<title>Moved</title><a href=\"next\">n</a>"))
            let output = try await web.run("web.summary", ["url": .string(server.url("/short"))])
            #expect(output["url"] == .string(server.url("/long/article")))
            #expect(output["title"] == "Moved")
            #expect(output["links"]?.arrayValue?.first?["url"] == .string(server.url("/long/next")))
        }
    }

    @Test func errorStatusesNameTheStatusAndAddress() async throws {
        try await withWeb { web, server in
            server.route("/old", .redirect(to: "/gone"))
            server.route("/gone", .html("<h1>Gone</h1>", status: 410))
            server.route("/loop", .redirect(to: "/loop"))
            let missing = server.url("/missing")
            await expectFailure("GET \(missing) returned 404 Not Found") {
                _ = try await web.run("web.summary", ["url": .string(missing)])
            }
            await expectFailure("GET \(server.url("/old")) returned 410 Gone (redirected to \(server.url("/gone")))") {
                _ = try await web.run("web.summary", ["url": .string(server.url("/old"))])
            }
            await expectFailure("fetching \(server.url("/loop")) was redirected more than 5 times (the last time to /loop)") {
                _ = try await web.run("web.summary", ["url": .string(server.url("/loop"))])
            }
        }
    }

    @Test func timeoutsSayHowLong() async throws {
        try await withWeb { web, server in
            // Two minutes, against a bound loose enough for a starved machine.
            server.route("/slow", LocalHTTPServer.Response.html("<title>late</title>").delayed(by: 120))
            var stalls = LocalHTTPServer.Response.html("<title>late</title>")
            stalls.bodyDelay = 120
            server.route("/stalls", stalls)
            for path in ["/slow", "/stalls"] {
                let start = Date()
                await expectFailure("fetching \(server.url(path)) timed out after 1s") {
                    _ = try await web.run("web.summary", ["url": .string(server.url(path)), "timeout": 1])
                }
                #expect(Date().timeIntervalSince(start) < 60)
            }
        }
    }

    @Test func plainTextIsSummarizedOtherTypesAreRefused() async throws {
        try await withWeb { web, server in
            server.route("/notes.txt", .text("\nFirst paragraph\nstill first.\n\nSecond.\n"))
            server.route("/paper.pdf", .bytes([0x25, 0x50, 0x44, 0x46, 0x2D, 0x31, 0x00, 0x01], contentType: "application/pdf"))
            server.route("/data.json", .text(#"{"a": 1}"#, contentType: "application/json"))
            server.route("/blob", .bytes([0x00, 0x01, 0x02], contentType: nil))
            let text = try await web.run("web.summary", ["url": .string(server.url("/notes.txt"))])
            #expect(text["first_paragraph"] == "First paragraph still first.")
            #expect(text["title"] == "")
            await expectFailure(
                "\(server.url("/paper.pdf")) is application/pdf, not a web page; web.summary reads HTML and plain text (web.fetch returns any response as it is)"
            ) { _ = try await web.run("web.summary", ["url": .string(server.url("/paper.pdf"))]) }
            let json = await failure { _ = try await web.run("web.summary", ["url": .string(server.url("/data.json"))]) }
            #expect(json.contains("is application/json, not a web page"))
            let blob = await failure { _ = try await web.run("web.summary", ["url": .string(server.url("/blob"))]) }
            #expect(blob.contains("is binary data without a content type, not a web page"))
        }
    }

    @Test func refusesOtherSchemes() async throws {
        try await withWeb { web, _ in
            await expectFailure("refusing 'file:///etc/passwd': only http and https addresses can be fetched (file: is not allowed)") {
                _ = try await web.run("web.summary", ["url": "file:///etc/passwd"])
            }
        }
    }

    @Test func isAnIdempotentQuery() async throws {
        try await withWeb { web, _ in
            let descriptor = try web.skill("web.summary").descriptor
            #expect(descriptor.kind == .query && descriptor.idempotent && !descriptor.confirm)
        }
    }
}
