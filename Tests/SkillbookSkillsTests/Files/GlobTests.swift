import SkillbookCore
import Testing

@testable import SkillbookSkills

@Suite struct GlobTests {
    @Test func starAndQuestionMarkStayWithinAName() {
        let pdf = Glob("*.pdf")
        #expect(pdf.matches("report.pdf"))
        #expect(pdf.matches(".pdf"))
        #expect(!pdf.matches("report.pdf.txt"))
        #expect(!pdf.matches("report.PDF"))
        #expect(!pdf.matchesPaths)
        let dated = Glob("2024-??-*.csv")
        #expect(dated.matches("2024-03-sales.csv"))
        #expect(!dated.matches("2024-3-sales.csv"))
        #expect(Glob("a*b*c").matches("aXXbYYc"))
        #expect(Glob("a*b*c").matches("abc"))
        #expect(!Glob("a*b*c").matches("acb"))
        #expect(Glob("*").matches("anything at all"))
        #expect(!Glob("*").matches("a/b"))
        #expect(!Glob("?").matches(""))
    }

    @Test func sets() {
        #expect(Glob("[abc].txt").matches("b.txt"))
        #expect(!Glob("[abc].txt").matches("d.txt"))
        #expect(Glob("img[0-9][0-9].png").matches("img42.png"))
        #expect(!Glob("img[0-9].png").matches("imgx.png"))
        #expect(Glob("[!a]*").matches("b"))
        #expect(!Glob("[!a]*").matches("abc"))
        #expect(Glob("[^a]*").matches("x"))
        #expect(Glob("[]]").matches("]"))
        #expect(Glob("[a-]").matches("-"))
        #expect(Glob("[").matches("["))  // unclosed: itself
        #expect(Glob("a[b").matches("a[b"))
        #expect(Glob("\\*").matches("*"))
        #expect(!Glob("\\*").matches("x"))
    }

    @Test func globstarMatchesAnyNumberOfFolders() {
        let text = Glob("**/*.txt")
        #expect(text.matchesPaths)
        #expect(text.matches("a.txt"))
        #expect(text.matches("x/a.txt"))
        #expect(text.matches("x/y/z/a.txt"))
        #expect(!text.matches("x/y/a.pdf"))
        let inReports = Glob("reports/**/q?.csv")
        #expect(inReports.matches("reports/q1.csv"))
        #expect(inReports.matches("reports/2024/eu/q3.csv"))
        #expect(!inReports.matches("other/2024/q3.csv"))
        #expect(Glob("**").matches("any/thing/here"))
        #expect(Glob("**").matchesPaths)
        let oneLevel = Glob("*/*.md")
        #expect(oneLevel.matches("docs/readme.md"))
        #expect(!oneLevel.matches("readme.md"))
        #expect(!oneLevel.matches("a/b/readme.md"))
    }
}
