import Testing

@testable import SkillbookAgent

/// Issue 26: the kinds of text a request asks to pull out, and the lines their patterns are tried on.
@Suite struct ExtractKindTests {
    @Test func aRequestNamingOneKindAsksForIt() {
        #expect(ExtractKind.asked(in: "read /tmp/contacts.txt, pull out the phone numbers and save them as a note") == .phoneNumber)
        #expect(ExtractKind.asked(in: "find the e-mail addresses in /tmp/contacts.txt") == .emailAddress)
        #expect(ExtractKind.asked(in: "读取 /tmp/contacts.txt 然后找出里面的邮箱地址") == .emailAddress)
        #expect(ExtractKind.asked(in: "读取 /tmp/invoice.txt，找出金额，然后发通知给我") == .amount)
        #expect(ExtractKind.asked(in: "get the links out of /tmp/page.html") == .link)
        #expect(ExtractKind.asked(in: "list the IP addresses in /tmp/server.log") == .ipAddress)
        #expect(ExtractKind.asked(in: "找出 /tmp/log.txt 里的日期") == .date)
        // None, or two: nothing is asked of the pattern.
        #expect(ExtractKind.asked(in: "read /tmp/app.log and find the lines that start with ERROR") == nil)
        #expect(ExtractKind.asked(in: "find the phone numbers and e-mails in /tmp/contacts.txt") == nil)
        #expect(ExtractKind.asked(in: "update the notes") == nil)
    }

    @Test func eachKindsPatternFindsEverySample() throws {
        for kind in ExtractKind.allCases {
            let regex = try Regex(kind.pattern)
            for (line, value) in kind.samples {
                #expect(line.matches(of: regex).map { String($0.output[0].substring ?? "") }.contains(value), "\(kind) in \(line)")
            }
        }
    }

    @Test func aPatternFindsAKindWhenItMatchesHalfItsSamples() {
        #expect(!ExtractKind.phoneNumber.finds(#"\b\d{3}-\d{3}-\d{4}\b"#))  // US numbers only
        #expect(!ExtractKind.amount.finds("金额: ([0-9.]+)", group: 1))  // not the English invoice's "Total"
        #expect(!ExtractKind.emailAddress.finds(#"(?m)^[\w.]+@[\w.]+$"#))  // only a line that is an address alone
        #expect(!ExtractKind.emailAddress.finds(#"[\w.]+@[\w.]+"#, group: 1))  // no such group
        #expect(!ExtractKind.link.finds("(unclosed"))
        #expect(ExtractKind.phoneNumber.finds(#"\+?\d[\d -]{6,}\d"#))
        #expect(ExtractKind.emailAddress.finds(#"(?m)^.*@.*$"#))  // the whole lines holding them
        #expect(ExtractKind.amount.finds(#"(\d+[.,]\d\d)"#, group: 1))
    }
}
