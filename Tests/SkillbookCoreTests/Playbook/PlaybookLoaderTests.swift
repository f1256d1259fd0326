import SkillbookCore
import Testing

@Suite struct PlaybookLoaderTests {
    @Test func aPlaybookInPlaybooksMustBeNamedAfterItsFile() {
        let yaml = "name: morning\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n"
        #expect(
            PlaybookFixture.diagnosticsWithHints(yaml, file: "/home/anna/Playbooks/evening.yaml") == [
                "1:7: error: playbook name 'morning' does not match its file name 'evening.yaml'; a playbook is found by its file name",
                "note: write `name: evening`, or rename the file to morning.yaml",
            ])
        #expect(PlaybookFixture.load(yaml, file: "/home/anna/Playbooks/evening.yaml").playbook == nil)
        #expect(PlaybookFixture.diagnostics(yaml, file: "Playbooks/morning.yaml").isEmpty)
        #expect(PlaybookFixture.diagnostics(yaml, file: "Playbooks/morning.yml").isEmpty)
        #expect(PlaybookFixture.diagnostics(yaml, file: "/tmp/anything.yaml").isEmpty)
    }

    @Test func aCycleErrorNamesTheStepAtItsPosition() {
        let sources = [
            "loop_a": "name: loop_a\nsteps:\n  - { id: to_b, playbook: loop_b }\n",
            "loop_b": "name: loop_b\nsteps:\n  - { id: back_to_a, playbook: loop_a }\n",
        ]
        let library = PlaybookLibrary(source: { name in sources[name].map { ($0, "\(name).yaml") } }, names: { Array(sources.keys) })
        let loader = PlaybookLoader(registry: PlaybookFixture.registry, library: library)
        let result = loader.load(sources["loop_a"]!, file: "loop_a.yaml")
        #expect(
            result.diagnostics.map(\.description) == [
                "loop_a.yaml:3:27: error: step 'to_b' makes a playbook cycle: loop_a → loop_b → loop_a"
            ])
    }
}
