import SkillbookCore
import Foundation
import Testing

@testable import SkillbookSkills

/// A readable rendering of the tokens of `html`: `<a href=x>`, `</a>`, `"text"`.
private func tokens(_ html: String) -> [String] {
    var tokenizer = HTMLTokenizer(Array(html.utf8))
    var out: [String] = []
    while let token = tokenizer.next() {
        switch token {
        case .startTag(let tag):
            let attributes = tag.attributes.map { " \($0.name)=\($0.value)" }.joined()
            out.append("<\(tag.name)\(attributes)\(tag.selfClosing ? "/" : "")>")
        case .endTag(let name): out.append("</\(name)>")
        case .text(let range): out.append("\"\(tokenizer.text(range))\"")
        case .literal(let range): out.append("'\(tokenizer.literal(range))'")
        }
    }
    return out
}

@Suite struct HTMLTokenizerTests {
    @Test func tagsAttributesAndText() {
        #expect(
            tokens(#"<P CLASS="a b" id='x' data-n=3 hidden>Hi &amp; bye</P><br/>"#)
                == [#"<p class=a b id=x data-n=3 hidden=>"#, #""Hi & bye""#, "</p>", "<br/>"])
        #expect(tokens("<a href=/x?a=1&b=2>go</a>") == ["<a href=/x?a=1&b=2>", "\"go\"", "</a>"])
        #expect(tokens("<img src=\"a.png\" src=\"b.png\">") == ["<img src=a.png>"])
        #expect(tokens("<div\nclass = \"c\"\t>") == ["<div class=c>"])
    }

    @Test func lessThanThatStartsNoTagIsText() {
        #expect(tokens("1 < 2 and 3 <= 4") == ["\"1 \"", "\"<\"", "\" 2 and 3 \"", "\"<\"", "\"= 4\""])
        #expect(tokens("a <") == ["\"a \"", "\"<\""])
        #expect(tokens("</>x") == ["\"x\""])
    }

    @Test func commentsDoctypesAndProcessingInstructionsAreSkipped() {
        #expect(tokens("<!DOCTYPE html><!-- <p>not</p> -->a<!---->b<!-->c<?xml version=\"1.0\"?>d") == [
            "\"a\"", "\"b\"", "\"c\"", "\"d\"",
        ])
        #expect(tokens("a<!-- never closed <p>x</p>") == ["\"a\""])
        #expect(tokens("a<!-- odd --!>b") == ["\"a\"", "\"b\""])
    }

    @Test func cdataIsLiteralText() {
        #expect(tokens("<p><![CDATA[x < y & z]]></p>") == ["<p>", "'x < y & z'", "</p>"])
    }

    @Test func scriptAndStyleContentsAreSkipped() {
        let html = "<script>if (a < b) document.write('</div><p>fake</p>')</script><p>real</p>"
            + "<STYLE>p { color: red }</Style><noscript><p>enable js</p></noscript>"
        #expect(
            tokens(html) == [
                "<script>", "</script>", "<p>", "\"real\"", "</p>", "<style>", "</style>", "<noscript>", "</noscript>",
            ])
        #expect(tokens("<script>var s = '</scripts>';</script >x") == ["<script>", "</script>", "\"x\""])
    }

    @Test func titleIsTextEvenWithMarkupInside() {
        #expect(tokens("<title>A <b> &amp; B</title>") == ["<title>", "\"A <b> & B\"", "</title>"])
        // An unclosed title ends at the next tag instead of swallowing the page.
        #expect(tokens("<title>Broken</head><p>x") == ["<title>", "\"Broken\"", "</head>", "<p>", "\"x\""])
    }

    @Test func truncatedInputNeverFails() {
        for cut in ["<a href=\"x", "<a href=", "<a", "</a", "<!--", "<![CDATA[x", "<script>x", "<p class='a"] {
            _ = tokens(cut)
            _ = tokens("text " + cut)
        }
        #expect(tokens("ok<a href=\"x") == ["\"ok\""])
        // An unclosed quote ends at the tag's `>` when no closing quote follows.
        #expect(tokens("<a href=\"x>go") == ["<a href=x>", "\"go\""])
    }

    @Test func manyUnclosedElementsStayLinear() {
        let html = String(repeating: "<title>x", count: 20_000)
        let start = Date()
        #expect(tokens(html).count == 40_000)
        #expect(Date().timeIntervalSince(start) < 20)
    }
}

@Suite struct HTMLEntitiesTests {
    func decode(_ text: String, attribute: Bool = false) -> String {
        HTMLEntities.decode(Array(text.utf8)[...], inAttribute: attribute)
    }

    @Test func namedAndNumericReferences() {
        #expect(decode("&amp; &lt; &gt; &quot; &apos; &#39; &#x27; &#X27;") == "& < > \" ' ' ' '")
        #expect(decode("a&nbsp;b") == "a\u{A0}b")
        #expect(decode("&eacute;t&eacute; &mdash; &hellip; &euro;5 &copy; &trade; &rsquo;") == "été — … €5 © ™ ’")
        #expect(decode("&Omega;&omega;&sigmaf;&alpha;") == "Ωωςα")
    }

    @Test func oddReferences() {
        #expect(decode("&#0; &#xD800; &#x110000; &#99999999999;") == "\u{FFFD} \u{FFFD} \u{FFFD} \u{FFFD}")
        #expect(decode("&#150; &#x80;") == "– €")  // Windows-1252 meanings
        #expect(decode("&#65") == "A")
        #expect(decode("&unknown; & &; &#; &#x;") == "&unknown; & &; &#; &#x;")
        #expect(decode("AT&T") == "AT&T")
    }

    @Test func legacyNamesWithoutSemicolon() {
        #expect(decode("&copy 2026 &amp that") == "© 2026 & that")
        #expect(decode("&copy2026") == "©2026")
        #expect(decode("?a=1&copy=2", attribute: true) == "?a=1&copy=2")
        #expect(decode("?a=1&amp;copy=2", attribute: true) == "?a=1&copy=2")
        #expect(decode("x&amp", attribute: true) == "x&")
    }
}
