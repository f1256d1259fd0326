import SkillbookCore
import Foundation
import Testing

@testable import SkillbookSkills

@Suite struct TextDecodingTests {
    let cp1252: [UInt8] = Array("caf".utf8) + [0xE9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80, 0x35, 0x20, 0x96, 0x20, 0x9F]

    @Test func mediaTypes() {
        #expect(MediaType("text/html; charset=\"ISO-8859-1\"") == MediaType(type: "text/html", charset: "iso-8859-1"))
        #expect(MediaType("Text/HTML;Charset=UTF-8;x=y")?.charset == "utf-8")
        #expect(MediaType("application/json")?.charset == nil)
        #expect(MediaType("") == nil)
        #expect(MediaType(nil) == nil)
    }

    @Test func declaredEncodings() {
        #expect(TextDecoding.decode(cp1252, declared: "windows-1252", html: false).text == "café “q” €5 – Ÿ")
        #expect(TextDecoding.decode(cp1252, declared: "ISO-8859-1", html: false).text == "café “q” €5 – Ÿ")
        #expect(TextDecoding.decode(cp1252, declared: "us-ascii", html: false).encoding == "windows-1252")
        #expect(TextDecoding.decode(Array("Grüße 👋".utf8), declared: "utf-8", html: false).text == "Grüße 👋")
        // Declared UTF-8 that is not: replacement characters, no failure.
        #expect(TextDecoding.decode(cp1252, declared: "utf-8", html: false).text.contains("\u{FFFD}"))
    }

    @Test func byteOrderMarksWin() {
        #expect(TextDecoding.decode([0xEF, 0xBB, 0xBF] + Array("hé".utf8), declared: "windows-1252", html: false).text == "hé")
        #expect(TextDecoding.decode([0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00], declared: nil, html: false).text == "hé")
        #expect(TextDecoding.decode([0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9], declared: nil, html: false).text == "hé")
    }

    @Test func metaCharsetInHTML() {
        let meta = Array("<html><head><meta charset=windows-1252><title>".utf8) + cp1252
        #expect(TextDecoding.decode(meta, declared: nil, html: true).text.hasSuffix("café “q” €5 – Ÿ"))
        let httpEquiv =
            Array("<!-- c --><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=iso-8859-1\">".utf8)
            + cp1252
        #expect(TextDecoding.decode(httpEquiv, declared: nil, html: true).encoding == "windows-1252")
        // The header wins over the page.
        #expect(TextDecoding.decode(meta, declared: "utf-8", html: true).encoding == "utf-8")
        // A meta claiming UTF-16 in an ASCII-compatible page means UTF-8.
        #expect(TextDecoding.decode(Array("<meta charset=utf-16>é".utf8), declared: nil, html: true).text.hasSuffix("é"))
    }

    @Test func undeclaredAndUnknownFallBack() {
        #expect(TextDecoding.decode(Array("Grüße".utf8), declared: nil, html: true) == ("Grüße", "utf-8"))
        #expect(TextDecoding.decode(cp1252, declared: nil, html: true).text == "café “q” €5 – Ÿ")
        #expect(TextDecoding.decode(cp1252, declared: "x-klingon", html: false).text == "café “q” €5 – Ÿ")
        #expect(TextDecoding.decode(Array("Grüße".utf8), declared: "x-klingon", html: false).text == "Grüße")
    }

    @Test func aCutUTF8SequenceAtTheEndIsDropped() {
        let bytes = Array("ab世".utf8).dropLast()
        #expect(TextDecoding.decode(Array(bytes), declared: "utf-8", html: false, truncated: true).text == "ab")
        #expect(TextDecoding.decode(Array(bytes), declared: nil, html: false, truncated: true).text == "ab")
        #expect(TextDecoding.decode(Array("ab世".utf8), declared: nil, html: false, truncated: true).text == "ab世")
    }
}
