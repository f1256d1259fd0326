import SkillbookCore
import Testing

@Suite struct StepOutputReadersTests {
    func readers(_ yaml: String) throws -> StepOutputReaders {
        let result = PlaybookFixture.load(yaml)
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)")
        return StepOutputReaders(try #require(result.playbook))
    }

    static let chain = """
        name: chain
        description: Each step reads the one before.
        steps:
          - id: a
            skill: debug.echo
            with: { value: "one" }
          - id: b
            skill: text.template
            with: { template: "x", values: { v: "${{ steps.a.output.value }}" } }
          - id: c
            skill: debug.echo
            with: { value: "${{ steps.b.output.text }}" }
          - id: d
            skill: debug.echo
            with: { value: "${{ steps.a.output.value }}" }
            when: "${{ steps.c.output.value == 'x' }}"

        """

    @Test func anOutputIsReleasedAfterItsLastReaderAndOneNobodyReadsAfterItsOwnStep() throws {
        // a: last read by d (index 3); b: by c; c: by d's `when`; d: by nobody.
        #expect(try readers(Self.chain).releasedAfter == [[], [], ["b"], ["a", "c", "d"]])
    }

    @Test func theOutputsAndRollbackStepsKeepWhatTheyReadToTheEnd() throws {
        let yaml = """
            name: kept
            description: The playbook's outputs and an undo read earlier steps.
            steps:
              - id: a
                skill: debug.echo
                with: { value: "one" }
              - id: b
                skill: debug.echo
                with: { value: "two" }
              - id: c
                skill: notes.create
                with: { title: "${{ steps.a.output.value }}" }
                rollback:
                  - skill: debug.echo
                    with: { value: "${{ steps.b.output.value }}" }
            outputs:
              first: "${{ steps.a.output.value }}"

            """
        #expect(try readers(yaml).releasedAfter == [[], [], ["c"]])
    }

    @Test func foreachAndItsPerItemWhenAreReads() throws {
        let yaml = """
            name: loop
            description: Goes over a list an earlier step made.
            steps:
              - id: list
                skill: debug.echo
                with: { value: [1, 2] }
              - id: limit
                skill: debug.echo
                with: { value: 1 }
              - id: each
                skill: debug.echo
                foreach: "${{ steps.list.output.value }}"
                when: "${{ item > steps.limit.output.value }}"
                with: { value: "${{ item }}" }

            """
        #expect(try readers(yaml).releasedAfter == [[], [], ["list", "limit", "each"]])
        #expect(try readers(yaml).released(after: 7) == [], "past the last step: nothing")
    }
}
