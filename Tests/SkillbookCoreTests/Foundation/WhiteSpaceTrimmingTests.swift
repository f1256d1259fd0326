import Foundation
import SkillbookCore
import Testing

@Suite struct WhiteSpaceTrimmingTests {
    /// Every White_Space scalar of Unicode, with a few that are not (zero-width space, BOM, NUL).
    static let edges: [String] = [
        " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\r\n", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}", "\u{200A}",
        "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{0}", "",
    ]

    static var samples: [String] {
        var texts = ["", "30s", " 5m ", "a b", "  ", "\t\t1h\n", "é", " 日本 ", "e\u{301} "]
        for edge in edges {
            texts += [edge, "\(edge)x", "x\(edge)", "\(edge)x y\(edge)", "\(edge)\(edge)", "\(edge)é\(edge)"]
        }
        return texts
    }

    @Test func removesWhatFoundationRemovesWithNewlines() {
        for text in Self.samples {
            #expect(text.trimmingWhiteSpace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func keepingLineBreaksRemovesWhatFoundationsWhitespacesRemoves() {
        for text in Self.samples {
            #expect(text.trimmingWhiteSpace(keepingLineBreaks: true) == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func worksOnSubstringsAndKeepsTheInside() {
        let line = "  keep  this\tinside \n"
        #expect(line.dropFirst().trimmingWhiteSpace() == "keep  this\tinside")
        #expect(line.trimmingWhiteSpace(keepingLineBreaks: true) == "keep  this\tinside \n")
    }
}
