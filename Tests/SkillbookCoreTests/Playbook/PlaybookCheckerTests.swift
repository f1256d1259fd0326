import SkillbookCore
import Testing

/// Checker cases the malformed-playbook corpus of the CLI tests does not cover. Diagnostics are
/// `LINE:COLUMN: severity: message`, in the order the loader reports them.
@Suite struct PlaybookCheckerTests {
    @Test func aWarningAloneKeepsThePlaybook() throws {
        let yaml = """
            name: mail
            steps:
              - id: send
                skill: mail.send
                with: { to: ada@example.com }

            """
        let result = PlaybookFixture.load(yaml)
        #expect(result.playbook != nil)
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "4:12: warning: step 'send' uses skill 'mail.send', which is not available here: no mail account configured"
            ])
    }

    @Test func aWarningNextToAnErrorStillRefusesThePlaybook() {
        let yaml = """
            name: mail
            steps:
              - id: send
                skill: mail.send
                with: { to: 42 }

            """
        #expect(PlaybookFixture.load(yaml).playbook == nil)
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "4:12: warning: step 'send' uses skill 'mail.send', which is not available here: no mail account configured",
                "5:17: error: step 'send' parameter 'to' expects string, got integer",
            ])
    }

    @Test func aLiteralDeepInAListOfObjectsIsReportedAtItsOwnPosition() {
        let yaml = """
            name: deep
            steps:
              - id: bulk
                skill: notes.import
                with:
                  notes:
                    - title: fine
                    - title: far too long for ten
                      tags: [ok, ""]
                    - { tags: [x] }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "8:18: error: step 'bulk' parameter 'notes[1].title' must be at most 10 characters long, got 20",
                "9:22: error: step 'bulk' parameter 'notes[1].tags[1]' must not be empty",
                "10:11: error: step 'bulk' parameter 'notes[2]' is missing required property 'title'",
            ])
    }

    @Test func aLiteralNextToAnExpressionInTheSameListIsStillPinpointed() {
        let yaml = """
            name: deep
            steps:
              - id: a
                skill: debug.echo
                with: { value: x }
              - id: bulk
                skill: notes.import
                with:
                  notes:
                    - title: "${{ steps.a.output.value }}"
                    - title: ok
                      tags: [fine, 7]
                    - title: "${{ steps.a.output.nope }}"
                      colour: red

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "12:24: error: step 'bulk' parameter 'notes[1].tags[1]' expects string, got integer",
                "13:38: error: skill 'debug.echo' has no output field 'nope'; it has: value",
                "14:19: error: step 'bulk' parameter 'notes[2]' has unknown property 'colour'",
            ])
    }

    @Test func aListOrObjectWithExpressionsMustFitTheParameterType() {
        let yaml = """
            name: shapes
            inputs:
              who: { type: string }
            steps:
              - id: save
                skill: notes.create
                with:
                  title: ["${{ inputs.who }}"]
                  body: { text: "${{ inputs.who }}" }
                  tags: ["${{ inputs.who }}", "${{ length(inputs.who) }}"]

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "8:14: error: step 'save' parameter 'title' expects string, got array",
                "9:13: error: step 'save' parameter 'body' expects string, got object",
                "10:35: error: step 'save' parameter 'tags[1]' expects string, got integer",
            ])
    }

    @Test func inputDefaultsMayUseFunctionsButNotOtherInputs() {
        let yaml = """
            name: defaults
            inputs:
              day: { type: string, format: date, default: "${{ today() }}" }
              later: { type: string, default: "${{ add_days(today(), 1) }}" }
              copy: { type: string, default: "${{ inputs.day }}" }
              count: { type: integer, default: "${{ today() }}" }
            steps:
              - { id: a, skill: debug.echo, with: { value: "${{ inputs.copy }}" } }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "5:39: error: inputs are not available here",
                "6:36: error: input 'count' default expects integer, got string",
            ])
    }

    @Test func anInputDefaultCannotUseSteps() {
        let yaml = """
            name: defaults
            inputs:
              who: { type: string, default: "${{ steps.a.output.value }}" }
            steps:
              - { id: a, skill: debug.echo, with: { value: 1 } }

            """
        #expect(PlaybookFixture.diagnostics(yaml) == ["3:44: error: unknown step 'a'"])
    }

    @Test func anInputDefaultCannotUseTheRunWhichHasNotStartedYet() {
        let yaml = """
            name: defaults
            inputs:
              label: { type: string, default: "${{ run.playbook }}" }
            steps:
              - { id: a, skill: debug.echo, with: { value: "${{ run.playbook }}" } }

            """
        #expect(PlaybookFixture.diagnostics(yaml) == ["3:40: error: run is not available here"])
    }

    @Test func envNamesMustBeDeclared() {
        let yaml = """
            name: env
            env: [HOME]
            inputs:
              dir: { type: string, default: "${{ env.HOME }}" }
            steps:
              - id: a
                skill: debug.echo
                when: "${{ env.CI == 'true' }}"
                with: { value: "${{ env.HOME }}/${{ env.USER }}" }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "8:20: error: env 'CI' is not declared",
                "9:45: error: env 'USER' is not declared",
            ])
    }

    @Test func outputsMayUseEveryStepButOnlyDeclaredFields() {
        let yaml = """
            name: outs
            steps:
              - { id: a, skill: debug.echo, with: { value: 1 } }
              - { id: n, skill: notes.list }
            outputs:
              value: "${{ steps.a.output.value }}"
              titles: "${{ steps.n.output.items.*.title }}"
              count: "Found ${{ steps.n.output.count }} notes"
              nested: { first: "${{ steps.n.output.items[0].id }}", list: ["${{ steps.a.output.value }}"] }
              missing: "${{ steps.nope.output.value }}"
              field: "${{ steps.n.output.total }}"
              deep: "${{ steps.n.output.items.*.colour }}"

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "10:23: error: unknown step 'nope'",
                "11:30: error: skill 'notes.list' has no output field 'total'; it has: items, count",
                "12:37: error: no field 'colour' in object with fields: id, title, body, tags",
            ])
    }

    @Test func aConditionIsCheckedLikeAMapping() {
        let yaml = """
            name: cond
            inputs:
              save: { type: boolean, default: true }
            steps:
              - id: a
                skill: debug.echo
                when: "${{ inputs.sav && steps.a.output.value }}"
                with: { value: 1 }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "7:23: error: unknown input 'sav'; did you mean 'save'?",
                "7:36: error: step 'a' cannot use its own output",
            ])
    }

    @Test func mappingsToAnUnknownSkillAreStillTypeChecked() {
        let yaml = """
            name: unknown
            steps:
              - id: a
                skill: notes.craete
                with: { title: "${{ inputs.nope }}" }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "4:12: error: step 'a' uses unknown skill 'notes.craete'; did you mean 'notes.create'?",
                "5:32: error: unknown input 'nope'",
            ])
    }

    @Test func aRepeatedStepIDIsCheckedOnceAndItsExpressionsStillAre() {
        let yaml = """
            name: twice
            steps:
              - { id: a, skill: debug.echo, with: { value: 1 } }
              - { id: a, skill: debug.echo, with: { value: "${{ steps.a.output.value }}" } }
              - { id: b, skill: debug.echo, with: { value: "${{ steps.a.output.value }}" } }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "4:5: error: duplicate step id 'a' (first used at line 3); step ids must be unique"
            ])
    }

    @Test func aValidPlaybookHasNoDiagnosticsAtAll() throws {
        let yaml = """
            name: valid
            env: [HOME]
            inputs:
              day: { type: string, format: date, default: "${{ today() }}" }
              tags: { type: array, items: { type: string }, default: [] }
            steps:
              - id: greet
                skill: text.template
                with: { template: "Hi {{d}}", values: { d: "${{ inputs.day }}", home: "${{ env.HOME }}" } }
              - id: save
                skill: notes.create
                when: "${{ length(inputs.tags) > 0 }}"
                with: { title: "${{ steps.greet.output.text }}", tags: "${{ inputs.tags }}" }
              - id: all
                skill: notes.list
                with: { limit: "${{ 5 }}" }
            outputs:
              note: "${{ default(steps.save.output.id, 'none') }}"

            """
        let result = PlaybookFixture.load(yaml)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.playbook?.steps.count == 3)
    }
}

/// Parameters that go together (`dependentRequired`, and `oneOf`/`anyOf`/`not` that only say
/// which are present) are checked before the run, whatever their values are: a model's plan that
/// gave files.copy both `paths` with `into` and `copies` passed the checks and failed when it ran.
@Suite struct PlaybookCheckerPresenceTests {
    private func copying(_ with: String) -> String {
        """
        name: copy
        inputs:
          folder: { type: string }
        steps:
          - id: copy
            skill: files.copy
            with: \(with)

        """
    }

    @Test func bothShapesAtOnceAreRefusedBeforeTheRun() {
        let yaml = copying("{ paths: [\"${{ inputs.folder }}\"], into: /tmp/b, copies: [{ from: /tmp/a, to: /tmp/c }] }")
        #expect(PlaybookFixture.diagnostics(yaml) == ["7:5: error: step 'copy': skill 'files.copy' takes 'paths' or 'copies', not both"])
    }

    @Test func oneHalfOfAPairNamesTheOther() {
        #expect(
            PlaybookFixture.diagnostics(copying("{ paths: [/tmp/a] }")) == [
                "7:5: error: step 'copy': skill 'files.copy' needs 'into' with 'paths'"
            ])
        #expect(
            PlaybookFixture.diagnostics(copying("{ into: \"${{ inputs.folder }}\" }")) == [
                "7:5: error: step 'copy': skill 'files.copy' needs 'paths' with 'into'"
            ])
    }

    @Test func neitherShapeIsRefused() {
        #expect(
            PlaybookFixture.diagnostics(copying("{}")) == [
                "7:5: error: step 'copy': skill 'files.copy' needs 'paths' or 'copies'"
            ])
    }

    @Test func eachShapeAloneIsAccepted() {
        #expect(PlaybookFixture.diagnostics(copying("{ paths: [\"${{ inputs.folder }}\"], into: /tmp/b }")) == [])
        #expect(PlaybookFixture.diagnostics(copying("{ copies: [{ from: /tmp/a, to: /tmp/c }] }")) == [])
    }
}
