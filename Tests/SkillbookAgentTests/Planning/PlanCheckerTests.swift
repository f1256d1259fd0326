import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PlanCheckerTests {
    @Test func aGoodPlanBecomesAPlaybookThatPassesTheChecker() throws {
        let plan = Plan(steps: [
            Plan.Step(id: "page", target: "web.summary", with: ["url": "https://example.com"]),
            Plan.Step(id: "save", target: "notes.create", with: ["title": "${{ steps.page.output.title }}", "body": "${{ steps.page.output.first_paragraph }}"]),
        ])
        let checked = shippedChecker.check(plan, name: "summary-note", description: "summarize example.com and save it")
        #expect(checked.passes, "\(checked.diagnostics)")
        #expect(
            checked.text == """
                name: summary-note
                description: "summarize example.com and save it"
                steps:
                  - id: "page"
                    skill: "web.summary"
                    with:
                      "url": "https://example.com"
                  - id: "save"
                    skill: "notes.create"
                    with:
                      "title": "${{ steps.page.output.title }}"
                      "body": "${{ steps.page.output.first_paragraph }}"

                """)
        #expect(checked.playbook?.steps.map(\.skill) == ["web.summary", "notes.create"])
    }

    @Test func valuesAreCoercedLikeCommandLineValues() throws {
        let plan = Plan(steps: [
            Plan.Step(id: "ls", target: "files.list", with: ["root": ".", "recursive": "true", "limit": "20"]),
            Plan.Step(id: "r", target: "reminders.create", with: ["title": "call Anna", "due": "tomorrow 9am"]),
        ])
        let checked = shippedChecker.check(plan)
        #expect(checked.plan.steps[1].with["due"] == "2026-12-02T09:00:00+01:00")
        #expect(checked.plan.steps[0].with["recursive"] == true)
        #expect(checked.plan.steps[0].with["limit"] == 20)
        #expect(checked.diagnostics.map(\.message) == ["step 'ls' (files.list) is a query whose output no later step uses; pass it on with ${{ steps.ls.output.FIELD }} (FIELD: items, items.*.path, items.*.size, items.*.modified, count, truncated) or leave the step out"])
    }

    @Test func anUnusedQuerySuggestsTheReferenceToWriteWhereTheModelInventedAText() {
        let plan = Plan(steps: [
            Plan.Step(id: "ws", target: "web.summary", with: ["url": "https://example.com"]),
            Plan.Step(id: "note", target: "notes.create", with: ["title": "Example", "body": "This is a summary of the page."]),
        ])
        let checked = shippedChecker.check(plan, description: "summarize https://example.com and save it as a note")
        #expect(!checked.passes)
        // "Example" is in the request (example.com), the body is not: the suggestion is for the body,
        // with a text field of web.summary (not url: an address).
        #expect(
            checked.diagnostics.map(\.message) == [
                "step 'ws' (web.summary) is a query whose output no later step uses; pass it on, as in \"body\": \"${{ steps.ws.output.title }}\" in step 'note' (FIELD: url, status, title, description, first_paragraph, links_count, links, links.*.url, links.*.text, language, truncated), or leave the step out"
            ])
    }

    /// Issue 28.2–3: NEL, the line and paragraph separators, DEL, C1 controls and U+FFFE/U+FFFF in
    /// a value or in the request (the saved playbook's description) read back as they were.
    @Test func charactersYAMLTreatsSpeciallyReadBackIdentical() {
        let title = "line two \u{85} end \u{2028} \u{2029}\u{7F}\u{80}\u{9F}\u{FFFE}\u{FFFF}\u{FEFF}\u{0}\t\r\n\"\\"
        let request = "remind me \u{85} to call \u{7F}Anna\u{9B}\u{FFFF}"
        let plan = Plan(steps: [Plan.Step(id: "note", target: "notes.create", with: ["title": .string(title), "tags": ["a\u{2028}b", "c\u{85}"]])])
        let checked = shippedChecker.check(plan, name: "note", description: request)
        #expect(checked.passes, "\(checked.diagnostics)")
        #expect(checked.playbook?.description == request)
        let with = checked.playbook?.steps.first?.with ?? []
        #expect(with.map(\.name) == ["title", "tags"])
        #expect(with.first?.value.literalValue == .string(title))
        #expect(with.last?.value.literalValue == ["a\u{2028}b", "c\u{85}"])
    }

    /// Issue 28.4: a key longer than libyaml's implicit keys is written `? key`, so the checker names it.
    @Test func aKeyOverATousandCharactersIsAnUnknownParameter() {
        let key = String(repeating: "x", count: 1_100)
        let checked = shippedChecker.check(Plan(steps: [Plan.Step(id: "a", target: "notes.create", with: ["title": "t", key: 1])]))
        #expect(checked.text.contains("      ? \"\(key)\"\n      : 1\n"))
        #expect(checked.diagnostics.map(\.description) == ["plan.yaml:7:9: error: step 'a': skill 'notes.create' has no parameter '\(key)'"])
    }

    @Test func anUnknownSkillIsReportedWithASuggestion() {
        let checked = shippedChecker.check(Plan(steps: [Plan.Step(id: "a", target: "notes.craete", with: ["title": "x"])]))
        #expect(!checked.passes)
        #expect(checked.diagnostics.map(\.message) == ["step 'a' uses unknown skill 'notes.craete'; did you mean 'notes.create'?"])
    }

    @Test func wrongParameterTypesAreReported() {
        let checked = shippedChecker.check(Plan(steps: [Plan.Step(id: "a", target: "notes.list", with: ["limit": "many"])]))
        #expect(!checked.passes)
        #expect(checked.diagnostics.map(\.description) == ["plan.yaml:6:16: error: step 'a' parameter 'limit' expects integer, got string"])
    }

    @Test func theLintFindsBareTemplatesAndPipes() {
        let plan = Plan(steps: [
            Plan.Step(id: "ls", target: "files.list", with: ["root": "."]),
            Plan.Step(id: "save", target: "notes.create", with: ["title": "Files", "body": "{{ steps.ls.output.items }}"]),
            Plan.Step(id: "join", target: "notes.create", with: ["title": "${{ steps.ls.output.items.*.path | join(', ') }}"]),
        ])
        let lint = PlanLint.lint(plan, kinds: ["files.list": .query, "notes.create": .action])
        #expect(
            lint.map(\.description) == [
                "steps[1].with.body: error: step 'save' parameter 'body' uses {{ … }} without '$', which is plain text; a reference is written ${{ steps.ID.output.FIELD }}",
                "steps[2].with.title: error: step 'join' parameter 'title': no | filters; use join(list, sep)",
            ])
        let template = Plan(steps: [Plan.Step(id: "t", target: "text.template", with: ["template": "Hello {{name}} || {{ x }}"])])
        #expect(PlanLint.lint(template, kinds: [:]).isEmpty)
        // A step's id used as if it were a variable, as small models write it.
        let named = Plan(steps: [
            Plan.Step(id: "page", target: "web.summary", with: ["url": "https://example.com"]),
            Plan.Step(id: "save", target: "notes.create", with: ["title": "{{ page.title }}", "body": "${{ steps.page.output.title }}"]),
        ])
        #expect(
            PlanLint.lint(named, kinds: [:]).map(\.message) == [
                "step 'save' parameter 'title' uses {{ … }} without '$', which is plain text; a reference is written ${{ steps.ID.output.FIELD }}"
            ])
    }
}
