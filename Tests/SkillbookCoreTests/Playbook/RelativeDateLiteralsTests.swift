import SkillbookCore
import Testing

@Suite struct RelativeDateLiteralsTests {
    @Test func relativePhrasesAreAcceptedWhereADateIsExpected() {
        let yaml = """
            name: dates
            inputs:
              day: { type: string, format: date, default: 下周一 }
              at: { type: string, format: date-time, default: tomorrow 9am }
              iso: { type: string, format: date, default: "2026-03-01" }
            steps:
              - id: a
                skill: reminders.list
                with: { due_on: next monday, due_before: 明天早上9点 }

            """
        let result = PlaybookFixture.load(yaml)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let playbook = result.playbook
        #expect(playbook?.inputs.map(\.isRequired) == [false, false, false])
        #expect(playbook?.inputs[0].defaultExpression?.literalValue == "下周一", "kept as written, resolved per run")
        #expect(playbook?.inputs[2].schema.defaultValue == "2026-03-01", "an ISO date stays a plain default")
    }

    @Test func aPhraseThatDoesNotParseIsAnErrorAtTheValue() {
        let yaml = """
            name: dates
            inputs:
              day: { type: string, format: date, default: someday soon }
              count: { type: integer, default: many }
            steps:
              - id: a
                skill: reminders.list
                with: { due_on: the day after never }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "3:47: error: input 'day' default must be a date like 2026-11-30, got 'someday soon'",
                "4:36: error: input 'count' default expects integer, got string",
                "8:21: error: step 'a' parameter 'due_on' must be a date like 2026-11-30, got 'the day after never'",
            ])
    }
}
