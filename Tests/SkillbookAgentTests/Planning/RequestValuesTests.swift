@testable import SkillbookAgent
import Testing

@Suite struct RequestValuesTests {
    @Test func pathsAndAddressesAreReadAsWrittenWithoutThePunctuationAround() {
        let values = RequestValues(
            "list the files in /tmp/reports, join them and write it to ~/out.txt; then fetch https://example.org/a?b=1."
        )
        #expect(values.paths == ["/tmp/reports", "~/out.txt"])
        #expect(values.addresses == ["https://example.org/a?b=1"])
    }

    @Test func chineseTextSplitsWordsAtItsCharacters() {
        let values = RequestValues("把 /tmp/report.txt 复制到/tmp/archive然后通知我，再总结 https://example.com。")
        #expect(values.paths == ["/tmp/report.txt", "/tmp/archive"])
        #expect(values.addresses == ["https://example.com"])
    }

    @Test func aFileNameIsAPathAndABareDomainAnAddress() {
        let values = RequestValues("read todo.txt and summarize example.com/blog and notes/today.md")
        #expect(values.paths == ["todo.txt", "notes/today.md"])
        #expect(values.addresses == ["https://example.com/blog"])
        // Words with a dot or a slash that are not paths.
        #expect(RequestValues("wait 2.5 hours, then say hi.").paths.isEmpty)
        #expect(
            RequestValues("e.g. list the Node.js projects, and/or mail bob@example.com 24/7 over TCP/IP by 12/25 at 9.30am")
                .paths.isEmpty)
        #expect(RequestValues("copy backup/ and notes.md").paths == ["backup/", "notes.md"])
    }

    @Test func onlyPathAndAddressFormatsAreHeldToThem() {
        let values = RequestValues("copy /tmp/a into /tmp/b and fetch https://x.org")
        #expect(values.prefixes(for: "path") == ["/tmp/a", "/tmp/b"])
        #expect(values.prefixes(for: "uri") == ["https://x.org"])
        #expect(values.prefixes(for: "date").isEmpty)
        #expect(values.prefixes(for: nil).isEmpty)
    }

    /// A mail server is held to the server the request names, not to its web page; a recipient to
    /// the address it names.
    @Test func mailServersAndAddressesAreValuesOfTheirFormats() {
        let values = RequestValues("summarise https://example.com/blog and email it to ana@example.com through smtp://127.0.0.1:2525.")
        #expect(values.addresses == ["https://example.com/blog"])
        #expect(values.otherAddresses == ["smtp://127.0.0.1:2525"])
        #expect(values.emails == ["ana@example.com"])
        #expect(values.prefixes(for: "uri") == ["https://example.com/blog", "smtp://127.0.0.1:2525"])
        #expect(values.prefixes(for: "email") == ["ana@example.com"])
        #expect(values.paths.isEmpty)
        #expect(RequestValues("发邮件给 dev@example.com，服务器 smtps://mail.example.com:465").emails == ["dev@example.com"])
        #expect(RequestValues("meet @ noon, ://x, a@b and x@y.").emails.isEmpty)
        #expect(RequestValues("meet @ noon, ://x, a@b and x@y.").otherAddresses.isEmpty)
    }

    /// A path goes on in Chinese after a `/`: the answer schema held "读取 /tmp/日记/今天.txt" to the
    /// prefix `/tmp/` followed by a separator, so the model could not write the path it was given
    /// and wrote `/tmp/_journal/今天.txt`.
    @Test func aPathGoesOnInChineseAfterASlash() throws {
        #expect(RequestValues("读取 /tmp/日记/今天.txt 然后保存为笔记").paths == ["/tmp/日记/今天.txt"])
        #expect(RequestValues("把 ~/下载 里的文件移到 ~/归档/2026").paths == ["~/下载", "~/归档/2026"])
        #expect(RequestValues("看看/tmp/日记然后通知我").paths == ["/tmp/日记"])
        #expect(RequestValues("把/tmp/照片里的 png 文件移到/tmp/b").paths == ["/tmp/照片", "/tmp/b"])
        #expect(RequestValues("把/tmp/a移到/tmp/b").paths == ["/tmp/a", "/tmp/b"])
        let pattern = try Regex(PlanSchema.startPattern(RequestValues("读取 /tmp/日记/今天.txt").paths))
        #expect("/tmp/日记/今天.txt".wholeMatch(of: pattern) != nil)
        #expect("/tmp/_journal/今天.txt".wholeMatch(of: pattern) == nil)
        // A folder prefix (ending in /) lets anything follow.
        let folder = try Regex(PlanSchema.startPattern(["/tmp/"]))
        #expect("/tmp/日记".wholeMatch(of: folder) != nil)
    }
}
