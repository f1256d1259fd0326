import Foundation
import SkillbookTesting
import Testing

/// Issue 24's bad input, as `skillbook validate` reports it: an unknown notify event, a
/// notification target that does not exist, a malformed mail address and an approval timeout of
/// `0s`, each at file:line:col with a suggestion, exit 2, nothing run.
@Suite struct UnattendedMistakesTests {
    @Test func eachMistakeIsReportedWhereItIsWithASuggestion() async {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/evening-report.yaml", "name: evening-report\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n")
        let file = directory.write(
            "Playbooks/nightly.yaml",
            """
            name: nightly
            approval: { timeout: 0s }
            notify:
              failre:
                skill: notify.send
                with: { message: failed }
              failure:
                playbook: evening-reprot
              success:
                skill: mail.send
                with: { server: "smtp://127.0.0.1:2525", from: ops@example.com, to: ["anna@"], subject: done, text: done }
            steps:
              - { id: a, skill: debug.echo, with: { value: 1 } }

            """)
        let run = await skillbook(["validate", file.path], in: directory)
        #expect(run.code == 2)
        let errors = run.errLines.filter { $0.hasPrefix(file.path + ":") }
        #expect(
            errors == [
                "\(file.path):2:22: error: 'approval.timeout' must be a positive duration such as 30m, 4h or 2d (a request that expires at once could never be approved)",
                "\(file.path):4:3: error: unknown notify event 'failre'; did you mean 'failure'? (events: failure, rollback_incomplete, waiting, missed, success)",
                "\(file.path):8:15: error: notify step 'failure_1' runs unknown playbook 'evening-reprot'; did you mean 'evening-report'?",
                "\(file.path):11:74: error: step 'success_1' parameter 'to[0]' must be an email address like ada@example.com, got 'anna@'",
            ], "\(run.err)")
    }
}
