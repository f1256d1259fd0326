import SkillbookAgent
import SkillbookCore
import Testing

/// Issue 26, classes 9 and 10: plans that check and still do the wrong thing, caught by the lint.
@Suite struct RegexLintTests {
    static func errors(_ steps: [Plan.Step], request: String = "") -> [String] {
        shippedChecker.check(Plan(steps: steps), name: "plan", description: request).diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    static let read = Plan.Step(id: "s1", target: "files.read", with: ["path": "/tmp/app.log"])

    static func extract(_ regex: String, text: Value = "${{ steps.s1.output.content }}") -> Plan.Step {
        Plan.Step(id: "s2", target: "text.extract", with: ["text": text, "regex": .string(regex)])
    }

    @Test func aBackspaceWhereAWordBoundaryWasMeantIsAnError() {
        // JSON "\bERROR\b" decodes to backspaces around ERROR: it finds nothing.
        #expect(
            Self.errors([Self.read, Self.extract("\u{8}ERROR\u{8}")]) == [
                #"step 's2' parameter 'regex' holds a backspace character where a word boundary was meant: in JSON "\b" is a backspace; write "\\b" for \b ('\bERROR\b')"#
            ])
        #expect(Self.errors([Self.read, Self.extract(#"\bERROR\b"#)]).isEmpty)
    }

    @Test func anchorsWithoutMultilineOverAFileAreAnError() {
        #expect(
            Self.errors([Self.read, Self.extract("^TODO.*$")]) == [
                "step 's2' parameter 'regex' '^TODO.*$' anchors with ^ or $, which match only at the start and end of the whole text, "
                    + "and this text has many lines; start it with (?m) to match at every line: '(?m)^TODO.*$'"
            ])
        // (?m), an escaped or bracketed ^ or $, or a one-line literal text: nothing to say.
        #expect(Self.errors([Self.read, Self.extract("(?m)^TODO.*$")]).isEmpty)
        #expect(Self.errors([Self.read, Self.extract("(?im)^todo")]).isEmpty)
        #expect(Self.errors([Self.read, Self.extract(#"costs \$5|[^a-z]x"#)]).isEmpty)
        #expect(Self.errors([Self.extract("^v[0-9]+$", text: "v12")]).isEmpty)
        #expect(Self.errors([Self.extract("^- ", text: "- a\n- b")]).count == 1)
    }

    @Test func aLineStartThatStopsBeforeTheLineEndIsAnErrorWhenTheRequestAsksForLines() {
        let request = "read /tmp/app.log, find the lines that start with ERROR and save them to /tmp/errors.txt"
        #expect(
            Self.errors([Self.read, Self.extract("(?m)^ERROR")], request: request) == [
                "step 's2' parameter 'regex' '(?m)^ERROR' finds only the start of each line, not the lines the request asks for; "
                    + "match up to the line's end: '(?m)^ERROR.*$'"
            ])
        // Without (?m) the one message says both.
        #expect(
            Self.errors([Self.read, Self.extract("^ERROR")], request: "读取 /tmp/app.log 然后找出以 ERROR 开头的行") == [
                "step 's2' parameter 'regex' '^ERROR' finds only the start of each line, not the lines the request asks for; "
                    + "match up to the line's end: '(?m)^ERROR.*$'"
            ])
        #expect(Self.errors([Self.read, Self.extract("(?m)^ERROR.*$")], request: request).isEmpty)
        #expect(Self.errors([Self.read, Self.extract("(?im)^error.+")], request: request).isEmpty)
        // The start alone up to the line's end: only the lines that are ERROR and nothing else.
        #expect(
            Self.errors([Self.read, Self.extract("(?m)^ERROR$")], request: request) == [
                "step 's2' parameter 'regex' '(?m)^ERROR$' finds only the lines that are that text alone, not the lines the request "
                    + "asks for; match up to the line's end: '(?m)^ERROR.*$'"
            ])
        #expect(Self.errors([Self.read, Self.extract("(?m)^ERROR$")], request: "read /tmp/app.log and find the lines that say ERROR").isEmpty)
        // A request that asks for words, not lines: the start is what it wants.
        #expect(Self.errors([Self.read, Self.extract("(?m)^ERROR")], request: "count the errors in /tmp/app.log").isEmpty)
    }

    @Test func aPatternOfTheTextAloneIsAnErrorWhenTheRequestAsksForLines() {
        #expect(
            Self.errors([Self.read, Self.extract("WARN")], request: "read /tmp/app.log and show me the lines that begin with WARN") == [
                "step 's2' parameter 'regex' 'WARN' finds only that text, not the lines the request asks for; "
                    + "match the whole line: '(?m)^WARN.*$'"
            ])
        #expect(
            Self.errors([Self.read, Self.extract("(?i)timeout|refused")], request: "读取 /tmp/app.log，找出包含 timeout 或 refused 的行") == [
                "step 's2' parameter 'regex' '(?i)timeout|refused' finds only that text, not the lines the request asks for; "
                    + "match the whole line: '(?im)^.*(?:timeout|refused).*$'"
            ])
        // Words, not lines, asked for; or a pattern that reaches the line's end: nothing to say.
        #expect(Self.errors([Self.read, Self.extract("WARN")], request: "count the WARN entries in /tmp/app.log").isEmpty)
        #expect(Self.errors([Self.read, Self.extract("WARN.*")], request: "find the lines with WARN in /tmp/app.log").isEmpty)
    }

    @Test func aPathTheRequestNamesThatNoStepUsesWhileAnOutputIsWiredInIsAnError() {
        let request = "make the folder /tmp/new and pack /tmp/docs into /tmp/docs.tar.gz"
        let mkdir = Plan.Step(id: "s1", target: "files.mkdir", with: ["path": "/tmp/new"])
        let wired = Plan.Step(
            id: "s2", target: "archive.create", with: ["paths": ["${{ steps.s1.output.path }}"], "archive": "/tmp/docs.tar.gz"])
        #expect(
            Self.errors([mkdir, wired], request: request) == [
                "the request names '/tmp/docs', which no step uses, and step 's2' parameter 'paths' takes ${{ steps.s1.output.path }} "
                    + "instead; write '/tmp/docs' there if that is the path the request means"
            ])
        let literal = Plan.Step(id: "s2", target: "archive.create", with: ["paths": ["/tmp/docs"], "archive": "/tmp/docs.tar.gz"])
        #expect(Self.errors([mkdir, literal], request: request).isEmpty)
        // Every path used, an output passed on as the request means: nothing to say.
        let list = Plan.Step(id: "s1", target: "files.list", with: ["root": "/tmp/x"])
        let pack = Plan.Step(id: "s2", target: "archive.create", with: ["paths": "${{ steps.s1.output.items.*.path }}", "archive": "/tmp/x.tar.gz"])
        #expect(Self.errors([list, pack], request: "list the files in /tmp/x and pack them into /tmp/x.tar.gz").isEmpty)
    }

    @Test func aPatternThatMissesTheKindTheRequestAsksForIsAnError() {
        let request = "read /tmp/contacts.txt, pull out the phone numbers and save them as a note called Phones"
        #expect(
            Self.errors([Self.read, Self.extract(#"\b\d{3}-\d{3}-\d{4}\b"#)], request: request) == [
                #"step 's2' parameter 'regex' '\b\d{3}-\d{3}-\d{4}\b' finds too few of the usual forms of phone numbers "#
                    + #"(such as '+49 30 1234567', '(555) 123-4567', '555-123-4567'); use '\+?\(?\d[\d ()./-]{5,}\d'"#
            ])
        // A capture group the kind's pattern does not have: the message says to leave it out.
        var amount = Self.extract("金额: ([0-9.]+)")
        amount.with["group"] = 1
        #expect(
            Self.errors([Self.read, amount], request: "读取 /tmp/invoice.txt，找出金额，然后发通知给我") == [
                "step 's2' parameter 'regex' '金额: ([0-9.]+)' finds too few of the usual forms of amounts of money "
                    + #"(such as '56.70', '1,234.56', '128.50'); use '\d[\d,]*[.,]\d{2}\b' and leave 'group' out"#
            ])
        // Reported alone: the anchors' own message would name a pattern that still finds none.
        #expect(Self.errors([Self.read, Self.extract(#"^[\w.]+@[\w.]+$"#)], request: "读取 /tmp/contacts.txt 然后找出里面的邮箱地址").count == 1)
        #expect(Self.errors([Self.read, Self.extract(#"\+?\d[\d -]{6,}\d"#)], request: request).isEmpty)
    }
}
