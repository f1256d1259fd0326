import SkillbookCore
import Testing

/// `when` must be boolean; expressions written the wrong way get a hint.
@Suite struct PlaybookConditionTests {
    private func playbook(when: String, inputs: String = "s: { type: string, default: x }") -> String {
        """
        name: cond
        inputs:
          \(inputs)
        steps:
          - id: a
            skill: debug.echo
            when: \(when)
            with: { value: 1 }

        """
    }

    @Test func aLiteralStringIsAnErrorAtItsPositionWithAFix() {
        #expect(
            PlaybookFixture.diagnosticsWithHints(playbook(when: "\"false\"")) == [
                "7:11: error: step 'a' 'when' must be a boolean, not the string 'false'",
                "note: write `when: false` without quotes, or compare it: `${{ inputs.s == 'yes' }}`",
            ])
        #expect(
            PlaybookFixture.diagnosticsWithHints(playbook(when: "yes please")) == [
                "7:11: error: step 'a' 'when' must be a boolean, not the string 'yes please'",
                "note: compare it: `${{ inputs.s == 'yes' }}`",
            ])
        #expect(
            PlaybookFixture.diagnosticsWithHints(playbook(when: "inputs.s")) == [
                "7:11: error: step 'a' 'when' must be a boolean, not the string 'inputs.s'",
                "note: did you mean `${{ inputs.s }}`?",
            ])
    }

    @Test func anExpressionOfAnotherTypeIsAnErrorWithAComparisonAsTheFix() {
        #expect(
            PlaybookFixture.diagnosticsWithHints(playbook(when: "\"${{ inputs.s }}\"")) == [
                "7:12: error: step 'a' 'when' must be a boolean, got string",
                "note: compare it: `${{ inputs.s == 'yes' }}`",
            ])
        #expect(
            PlaybookFixture.diagnosticsWithHints(
                playbook(when: "\"${{ inputs.tags }}\"", inputs: "tags: { type: array, items: { type: string }, default: [] }"))
                == [
                    "7:12: error: step 'a' 'when' must be a boolean, got array of string",
                    "note: test its length: `${{ length(inputs.tags) > 0 }}`",
                ])
        #expect(
            PlaybookFixture.diagnostics(playbook(when: "\"on ${{ inputs.s }}\"")) == [
                "7:11: error: step 'a' 'when' must be one `${{ … }}` of boolean type, not text around it"
            ])
        #expect(
            PlaybookFixture.diagnostics(playbook(when: "\"${{ inputs.s == true }}\"")) == [
                "7:25: error: cannot compare string with boolean: they are never equal"
            ])
    }

    @Test func booleansAndUntypedValuesPass() {
        #expect(PlaybookFixture.diagnostics(playbook(when: "false")).isEmpty)
        #expect(PlaybookFixture.diagnostics(playbook(when: "\"${{ inputs.s == 'yes' }}\"")).isEmpty)
        #expect(PlaybookFixture.diagnostics(playbook(when: "\"${{ from_json(inputs.s) }}\"")).isEmpty)
    }

    @Test func insideForeachWhenSeesTheItem() {
        let yaml = """
            name: each
            inputs:
              n: { type: array, items: { type: integer }, default: [1, 2, 3] }
            steps:
              - id: a
                skill: debug.echo
                foreach: "${{ inputs.n }}"
                when: "${{ item % 2 == 1 }}"
                with: { value: "${{ item }}" }
              - id: b
                skill: debug.echo
                with: { value: "${{ steps.a.output[0].skipped }}" }
              - id: c
                skill: debug.echo
                when: "${{ item > 1 }}"
                with: { value: 1 }

            """
        #expect(PlaybookFixture.diagnostics(yaml) == ["15:16: error: item is only available inside foreach"])
    }

    @Test func aBareForeachSuggestsAnExpression() {
        let yaml = """
            name: each
            inputs:
              urls: { type: array, items: { type: string }, default: [] }
            steps:
              - id: a
                skill: debug.echo
                foreach: inputs.urls
                with: { value: 1 }

            """
        #expect(
            PlaybookFixture.diagnosticsWithHints(yaml) == [
                "7:14: error: step 'a' 'foreach' expects a list, got string", "note: did you mean `${{ inputs.urls }}`?",
            ])
    }

    @Test func outputsSuggestOutput() {
        let yaml = """
            name: outs
            steps:
              - { id: a, skill: debug.echo, with: { value: 1 } }
              - { id: b, skill: debug.echo, with: { value: "${{ steps.a.outputs.value }}" } }

            """
        #expect(PlaybookFixture.diagnostics(yaml) == ["4:61: error: expected 'steps.a.output'; did you mean 'output'?"])
    }

    @Test func jinjaLookingTextWarnsExceptInTemplateParameters() {
        let yaml = """
            name: jinja
            inputs:
              name: { type: string, default: Anna }
            steps:
              - id: a
                skill: debug.echo
                with: { value: "Hello {{ inputs.name }}" }
              - id: b
                skill: debug.echo
                with: { value: ["{{ steps.a.output.value }} and ${{ inputs.name }}", "{{ name }} stays"] }
              - id: t
                skill: text.template
                with: { template: "Hi {{ inputs.name }}", values: { inputs: { name: "${{ inputs.name }}" } } }
            outputs:
              greeting: "{{ steps.t.output.text }}"

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "7:27: warning: '{{ inputs.name }}' is not an expression here and is passed on as text; did you mean `${{ inputs.name }}`?",
                "10:22: warning: '{{ steps.a.output.value }}' is not an expression here and is passed on as text; did you mean `${{ steps.a.output.value }}`?",
                "15:14: warning: '{{ steps.t.output.text }}' is not an expression here and is passed on as text; did you mean `${{ steps.t.output.text }}`?",
            ])
    }
}
