import Foundation
import SkillbookCore
import Testing

/// No crash on any input: random and truncated YAML goes through load + check, and every error
/// it produces points at a real position. (`YAMLLoaderTests` fuzzes the YAML layer alone; this goes
/// on through the decoder and the checker. `SplitMix64` is the seeded generator of `DateParserTests`.)
@Suite struct PlaybookLoaderFuzzTests {
    /// Uses every key of the format, every scalar style, anchors, flow and block collections.
    static let synthetic = """
        name: rich-example
        description: >
          Folded text.
        triggers: [brief me, "for {day}", 'say ''hi''']
        env: [HOME]
        on_failure: stop
        timeout: 5m
        inputs:
          day: { type: string, format: date, default: "${{ today() }}" }
          count: &n { type: integer, minimum: 1, default: 3 }
          other: *n
          tags:
            type: array
            items: { type: string }
            default: [a, "b c"]
          flag: { type: boolean, default: false, secret: true }
        steps:
          - id: first
            skill: debug.echo
            with: { value: "${{ inputs.count }}" }
            retry: 3
            timeout: 30s
          - id: greet
            skill: text.template
            when: "${{ !inputs.flag && length(inputs.tags) > 0 }}"
            retry: { attempts: 2, backoff: fixed, delay: 500ms }
            with:
              template: |
                Day {{day}}: {{home}}
              values:
                day: "${{ inputs.day }}"
                home: "${{ env.HOME }}"
          - id: save
            skill: notes.create
            on_failure: continue
            confirm: false
            with:
              title: "Note ${{ upper(inputs.day) }} — ü ✓"
              tags: ["${{ inputs.tags[0] }}", x]
          - id: each
            skill: notes.import
            foreach: "${{ inputs.tags }}"
            concurrency: 2
            batch: { size: 2, pause: 0, over: notes }
            with:
              notes:
                - { title: one }
                - title: "${{ item }}"
                  tags: ["${{ run.id }}"]
            rollback:
              - skill: debug.echo
                with: { value: "${{ this.output.count }}" }
          - id: recent
            skill: notes.list
            with: { tag: "${{ default(steps.save.output.title, 'x') }}", limit: !!int "5" }
        outputs:
          titles: "${{ steps.recent.output.items.*.title }}"
          fixed: [1, 2.5, null, ~, 0x1F]

        """

    /// Characters and fragments that mean something to YAML or to expressions.
    static let significant = [
        ":", "{", "}", "[", "]", "-", "'", "\"", "&", "*", "!", "|", ">", "#", "%", "@", "\t", "\n", "${{", "}}",
        ", ", ": ", "- ", "? ", "---", "...", "&a ", "*a", "!!str ", "!!int ", "\\", "`", " ", "  ", "\r\n", "é",
        "😀", "\u{0}", "\u{FEFF}", "${{ steps.", "${{ inputs.", ".output.", "(", ")", "==", "||",
    ]

    @Test func theSourcesLoadCleanlyBeforeTheyAreFuzzed() throws {
        for (name, text) in try PlaybookFixture.shippedPlaybooks() + [("synthetic", Self.synthetic)] {
            let result = PlaybookFixture.load(text, file: name)
            #expect(result.playbook != nil, "\(name): \(result.diagnostics)")
            #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
        }
        #expect(try PlaybookFixture.shippedPlaybooks().count >= 2)
    }

    @Test func everyTruncationOfEveryPlaybookLoadsWithoutACrash() throws {
        var loads = 0
        var accepted = 0
        for (name, text) in try PlaybookFixture.shippedPlaybooks() + [("synthetic", Self.synthetic)] {
            var prefix = ""
            for character in text {
                if Self.loadAndCheck(prefix, name) { accepted += 1 }
                prefix.append(character)
                loads += 1
            }
        }
        #expect(loads > 2000)
        // Some prefixes end between steps and are complete playbooks; most are not.
        #expect(accepted > 0 && accepted < loads)
    }

    @Test func randomMutationsLoadWithoutACrash() throws {
        let sources = try PlaybookFixture.shippedPlaybooks().map(\.text) + [Self.synthetic]
        var rng = SplitMix64(seed: 0x5EED_2026)
        var accepted = 0
        var rejected = 0
        for round in 0..<1500 {
            var characters = Array(sources[round % sources.count])
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                Self.mutate(&characters, &rng)
            }
            if Self.loadAndCheck(String(characters), "mutation-\(round).yaml") { accepted += 1 } else { rejected += 1 }
        }
        // The mutations must exercise both paths: the checker on valid YAML, and the error reports.
        #expect(accepted > 50)
        #expect(rejected > 400)
    }

    /// One of: delete a run of characters, insert a significant fragment, replace a character.
    private static func mutate(_ characters: inout [Character], _ rng: inout SplitMix64) {
        let position = Int.random(in: 0...characters.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0 where !characters.isEmpty:
            let start = min(position, characters.count - 1)
            let end = min(characters.count, start + Int.random(in: 1...8, using: &rng))
            characters.removeSubrange(start..<end)
        case 1:
            characters.insert(contentsOf: significant.randomElement(using: &rng)!, at: position)
        default:
            guard position < characters.count else { return }
            let replacement = significant.randomElement(using: &rng)!
            characters.replaceSubrange(position...position, with: replacement)
        }
    }

    /// Loads `text`; checks the result is consistent and every error points inside the text.
    /// Returns whether a playbook came back. (Problems are recorded only when found: `#expect` on
    /// every one of thousands of loads would cost more than the loads.)
    @discardableResult
    private static func loadAndCheck(_ text: String, _ file: String) -> Bool {
        let result = PlaybookFixture.load(text, file: file)
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        for diagnostic in result.diagnostics where diagnostic.severity == .error {
            guard let location = diagnostic.location else {
                Issue.record("error without a location: \(diagnostic) in\n\(text)")
                continue
            }
            let fine =
                location.file == file && location.line >= 1 && location.column >= 1 && location.line <= lineCount + 1
                && !diagnostic.message.isEmpty
            if !fine { Issue.record("error at a position outside the text: \(diagnostic) in\n\(text)") }
        }
        if (result.playbook == nil) != result.diagnostics.hasErrors {
            Issue.record("a playbook must come back exactly when there is no error: \(result.diagnostics) for\n\(text)")
        }
        return result.playbook != nil
    }
}
