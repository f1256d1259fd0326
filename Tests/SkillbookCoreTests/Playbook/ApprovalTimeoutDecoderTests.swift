import Foundation
import SkillbookCore
import Testing

/// `approval: { timeout }` on a playbook and on a step: how long a request for approval waits.
@Suite struct ApprovalTimeoutDecoderTests {
    func decode(_ yaml: String) throws -> (playbook: Playbook?, diagnostics: [String]) {
        let root = try YAMLLoader().load(yaml, file: "p.yaml")
        var diagnostics: [Diagnostic] = []
        let playbook = PlaybookDecoder().decode(root, file: "p.yaml", diagnostics: &diagnostics)
        return (playbook, diagnostics.map { "\($0.location.map { "\($0.file):\($0.line):\($0.column): " } ?? "")\($0.message)" })
    }

    @Test func thePlaybooksAndTheStepsTimeoutsAreDecodedAndTheStepsWins() throws {
        let decoded = try decode(
            """
            name: p
            approval: { timeout: 4h }
            steps:
              - { id: a, skill: notes.delete, approval: { timeout: 30m } }
              - { id: b, skill: notes.delete }
            """)
        #expect(decoded.diagnostics.isEmpty)
        let playbook = try #require(decoded.playbook)
        #expect(playbook.approvalTimeout == 14_400)
        #expect(playbook.steps[0].approvalTimeout == 1800)
        #expect(ApprovalTimeout.of(playbook.steps[0], in: playbook) == 1800)
        #expect(ApprovalTimeout.of(playbook.steps[1], in: playbook) == 14_400)
    }

    @Test func withoutOneTheDefaultIs24Hours() throws {
        let playbook = try #require(try decode("name: p\nsteps:\n  - { id: a, skill: notes.delete }\n").playbook)
        #expect(playbook.approvalTimeout == nil)
        #expect(ApprovalTimeout.of(playbook.steps[0], in: playbook) == 86_400)
    }

    @Test func aZeroOrMalformedTimeoutOrAnUnknownKeyIsAnErrorAtItsPlace() throws {
        let base = "steps:\n  - { id: a, skill: notes.delete }\nname: p\n"
        #expect(
            try decode("approval: { timeout: 0s }\n" + base).diagnostics == [
                "p.yaml:1:22: 'approval.timeout' must be a positive duration such as 30m, 4h or 2d (a request that expires at once could never be approved)"
            ])
        #expect(try decode("approval: { timeout: soon }\n" + base).diagnostics.first?.hasPrefix("p.yaml:1:22: 'approval.timeout' must be") == true)
        #expect(try decode("approval: { timout: 4h }\n" + base).diagnostics == ["p.yaml:1:13: unknown approval key 'timout'; did you mean 'timeout'?"])
        #expect(try decode("approval: 4h\n" + base).diagnostics == ["p.yaml:1:11: 'approval' must be a mapping such as { timeout: 4h }"])
        #expect(
            try decode("name: p\nsteps:\n  - id: a\n    skill: notes.delete\n    approval: { timeout: -1h }\n").diagnostics.first?
                .hasPrefix("p.yaml:5:26: 'approval.timeout' must be") == true)
        #expect(
            try decode("name: p\nsteps:\n  - { id: a, skill: notes.delete, aproval: { timeout: 1h } }\n").diagnostics == [
                "p.yaml:3:35: unknown step key 'aproval'; did you mean 'approval'?"
            ])
    }
}
