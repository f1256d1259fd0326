import SkillbookCore
import Foundation
import Testing

@testable import SkillbookSkills

@Suite struct PageSummaryTests {
    let page = URL(string: "https://news.example/world/story.html")!

    func summary(_ html: String, maxLinks: Int = 10) async throws -> PageSummary {
        try await PageSummary.html(html, url: page, maxLinks: maxLinks)
    }

    @Test func aTypicalArticle() async throws {
        let html = """
            <!DOCTYPE html>
            <HTML LANG=en-GB>
            <HEAD>
              <META CHARSET=utf-8>
              <TITLE>  Rivers   rise &amp; fall |
                 The   News </TITLE>
              <meta name=description content="Floods across the north &#8212; what we know.">
              <meta property="og:title" content="Not this one">
              <link rel=stylesheet href=/s.css>
              <style>p { margin: 0 }</style>
              <script>document.write("<p>from a script</p>")</script>
            </HEAD>
            <BODY>
              <header><p>Subscribe today!</p><nav><a href="/">Home</a> <a href=#main>Skip</a></nav></header>
              <!-- <p>commented out</p> -->
              <main id=main>
                <h1>Rivers rise</h1>
                <P>The  water came&nbsp;fast.
                   Residents <b>left</b> at <a href="../live/updates?id=1&amp;x=2">dawn</a>.
                <P>Second paragraph.
                <p>Contact <a href="mailto:desk@news.example">us</a> or <a href="javascript:void(0)">share</a>
                   or read <A HREF="https://other.example/a">elsewhere</A> and <a href="//cdn.example/x">there</a>.
                   <a href="/">Home again</a>
              </main>
              <footer><p>© The News</p></footer>
            </BODY>
            </HTML>
            """
        let result = try await summary(html)
        #expect(result.title == "Rivers rise & fall | The News")
        #expect(result.description == "Floods across the north — what we know.")
        #expect(result.firstParagraph == "The water came fast. Residents left at dawn.")
        #expect(result.language == "en-GB")
        // "/", "../live…", "https://other…", "//cdn…", "/" — not "#main", mailto or javascript.
        #expect(result.linksCount == 5)
        #expect(
            result.links == [
                .init(url: "https://news.example/", text: "Home"),
                .init(url: "https://news.example/live/updates?id=1&x=2", text: "dawn"),
                .init(url: "https://other.example/a", text: "elsewhere"),
                .init(url: "https://cdn.example/x", text: "there"),
            ])
    }

    @Test func fallbacksForTitleAndDescription() async throws {
        let og = try await summary(
            """
            <meta property="og:title" content="OG title"><meta property="og:description" content=" OG   text ">
            <h1>Heading</h1>
            """)
        #expect(og.title == "OG title")
        #expect(og.description == "OG text")
        let twitter = try await summary(#"<meta name="twitter:title" content="T"><meta name=twitter:description content=D>"#)
        #expect(twitter.title == "T")
        #expect(twitter.description == "D")
        #expect(try await summary("<title></title><h1>The <em>heading</em></h1>").title == "The heading")
        #expect(try await summary("<body><h1>Unclosed heading").title == "Unclosed heading")
        let nothing = try await summary("")
        #expect(nothing == PageSummary())
    }

    @Test func brokenMarkup() async throws {
        let html = """
            <html><head><title>Broken page</head>
            <body><div><p>First <i>unclosed <b>tags
            <div>block</div>
            <p class="x>Second
            """
        let result = try await summary(html)
        #expect(result.title == "Broken page")
        #expect(result.firstParagraph == "First unclosed tags")
    }

    @Test func titlesInsideSVGDoNotCount() async throws {
        let html = "<body><svg><title>icon</title><path d=x /></svg><title>Real</title><p>x</p>"
        #expect(try await summary(html).title == "Real")
        #expect(try await summary("<svg><title>icon</title></svg><h1>H</h1>").title == "H")
    }

    @Test func paragraphsInPageChromeAreTheLastResort() async throws {
        #expect(try await summary("<nav><p>Menu</p></nav><p></p><p>  </p><div><p>Body</p></div>").firstParagraph == "Body")
        #expect(try await summary("<footer><p>Only footer</p></footer>").firstParagraph == "Only footer")
        #expect(try await summary("<form><p>Sign in</p><p>x").firstParagraph == "Sign in")
    }

    @Test func longParagraphsAreClippedAtAWord() async throws {
        let long = (0..<400).map { "word\($0)" }.joined(separator: " ")
        let result = try await summary("<p>\(long)</p>").firstParagraph
        #expect(result.count <= PageSummary.paragraphLimit + 1)
        #expect(result.hasSuffix("…"))
        #expect(long.hasPrefix(String(result.dropLast())))
        #expect(!result.dropLast().hasSuffix(" "))
    }

    @Test func baseHrefAndLinkLimits() async throws {
        let html = """
            <base href="https://mirror.example/docs/">
            <a href="a">A</a><a href="a">A again</a><a href="b"><img alt=x></a><a href="c">C
            <a href=" d ">D</a>
            """
        let result = try await summary(html, maxLinks: 3)
        #expect(result.linksCount == 5)
        #expect(result.links.map(\.url) == ["https://mirror.example/docs/a", "https://mirror.example/docs/b", "https://mirror.example/docs/c"])
        #expect(result.links.map(\.text) == ["A", "", "C"])
        #expect(try await summary(html, maxLinks: 0).links.isEmpty)
    }

    @Test func languageFromMeta() async throws {
        #expect(try await summary(#"<meta http-equiv="Content-Language" content="de, en">"#).language == "de")
        #expect(try await summary(#"<html xml:lang="fr"><p>x"#).language == "fr")
    }

    @Test func plainText() {
        let text = "\n\n  First line\nsecond   line\n\nNext paragraph\n"
        #expect(PageSummary.plainText(text).firstParagraph == "First line second line")
    }

    @Test func hugePagesAreReadInLinearTime() async throws {
        let row = "<tr><td><a href=\"/item?id=1\">Item &amp; more</a></td><td><p>Cell text that goes on</p></td></tr>\n"
        let html = "<title>Big</title><table>" + String(repeating: row, count: 40_000)  // ~4 MB
        let start = Date()
        let result = try await summary(html)
        #expect(result.title == "Big")
        #expect(result.linksCount == 40_000)
        #expect(result.firstParagraph == "Cell text that goes on")
        #expect(Date().timeIntervalSince(start) < 30)
    }
}
