import SkillbookTesting
import SkillbookCore
import Foundation
import Testing

@Suite struct ShowCommandTests {
    @Test func showsInputsStepsMappingsAndOutputs() async {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "Playbooks/full.yaml",
            """
            name: full
            description: Shows everything.
            triggers: [show me, "full for {day}"]
            on_failure: stop
            inputs:
              day: { type: string, format: date, default: "${{ today() }}", description: The day. }
              who: { type: string, minLength: 1 }
              n: { type: integer, minimum: 1, maximum: 5, default: 2 }
            steps:
              - id: a
                skill: debug.echo
                with: { value: "${{ inputs.who }}" }
              - id: save
                skill: notes.create
                when: "${{ inputs.n > 1 }}"
                retry: 3
                on_failure: continue
                with:
                  title: "Hi ${{ steps.a.output.value }}"
                  tags:
                    - x
                    - "${{ inputs.day }}"
                  body: plain
              - id: t
                skill: text.template
                with:
                  template: "{{a}}"
                  values:
                    a: "${{ inputs.day }}"
                    b: 2
            outputs:
              note: "${{ steps.save.output.id }}"
              list: ["${{ inputs.day }}", 1]

            """)
        let run = await skillbook(["show", "full"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        #expect(
            run.out == """
                full — \(file.path)
                Shows everything.

                triggers:
                  show me
                  full for {day}

                inputs:
                  day: string (format date), default computed per run — The day.
                  who: string (1… chars), required
                  n: integer (1…5), default 2

                steps (on failure: stop):
                  1. a: debug.echo
                       value ← ${{ inputs.who }}
                  2. save: notes.create [on_failure: continue] [retry: 3] [when]
                       title ← Hi ${{ steps.a.output.value }}
                       tags ← ["x", ${{ inputs.day }}]
                       body ← "plain"
                  3. t: text.template
                       template ← "{{a}}"
                       values ← {a: ${{ inputs.day }}, b: 2}

                outputs:
                  note ← ${{ steps.save.output.id }}
                  list ← [${{ inputs.day }}, 1]

                """)
    }

    @Test func aMinimalPlaybookShowsOnlyWhatItHas() async {
        let directory = TemporaryDirectory()
        let file = directory.write("tiny.yaml", "name: tiny\nsteps:\n  - { id: a, skill: notes.list }\n")
        let run = await skillbook(["show", file.path], in: directory)
        #expect(run.code == 0)
        #expect(run.out == "tiny — \(file.path)\n\nsteps (on failure: rollback):\n  1. a: notes.list\n")
    }

    @Test func anInvalidOrUnknownPlaybookIsAnErrorWithExitCodeTwo() async {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/bad.yaml", "name: bad\nsteps:\n  - { id: a, skill: notes.lst }\n")
        let bad = await skillbook(["show", "bad"], in: directory)
        #expect(bad.code == 2)
        #expect(bad.out.isEmpty)
        #expect(bad.errLines.first == "\(file.path):3:21: error: step 'a' uses unknown skill 'notes.lst'; did you mean 'notes.list'?")

        let unknown = await skillbook(["show", "bda"], in: directory)
        #expect(unknown.code == 2)
        #expect(unknown.errLines.first == "skillbook: error: no playbook named 'bda' in \(directory.playbooks.path); did you mean 'bad'?")

        let nothing = await skillbook(["show"], in: directory)
        #expect(nothing.code == 2)
        #expect(nothing.errLines == ["skillbook: error: 'skillbook show' needs NAME|FILE", "Run 'skillbook show --help' for usage."])
    }

    /// Issue 27 friction: `show` displays the playbook's `schedule:` entries.
    @Test func showsTheSchedule() async {
        let directory = TemporaryDirectory()
        directory.write(
            "Playbooks/timed.yaml",
            """
            name: timed
            inputs:
              n: { type: integer, default: 1 }
            schedule:
              - cron: "0 7 * * 1-5"
                timezone: Europe/Berlin
                inputs: { n: 2 }
              - every: 90m
                catch_up: none
                overlap: queue
            steps:
              - id: a
                skill: debug.echo
                with: { value: "${{ inputs.n }}" }

            """)
        let run = await skillbook(["show", "timed"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines[1...4]) == [
                "", "schedule:", "  cron 0 7 * * 1-5 in Europe/Berlin; catch_up: latest, overlap: skip; inputs: {n: 2}",
                "  every 1h30m; catch_up: none, overlap: queue",
            ], "\(run.out)")
    }
}

