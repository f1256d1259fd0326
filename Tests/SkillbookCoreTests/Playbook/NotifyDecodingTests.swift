import SkillbookCore
import Testing

/// `notify:` as it loads: each event's steps checked like steps, with `run` the reported run;
/// every mistake at its position with a suggestion.
@Suite struct NotifyDecodingTests {
    static let body = """
        steps:
          - { id: a, skill: debug.echo, with: { value: 1 } }
        """

    @Test func eventsMapToStepsWithDefaultIDsThatNeedNoConfirmation() throws {
        let yaml = """
            name: nightly
            on_interrupted: resume
            notify:
              failure:
                skill: debug.echo
                with: { value: "${{ run.playbook }} ${{ run.status }}: ${{ default(run.error, '') }} ${{ run.duration }}" }
              rollback_incomplete:
                - id: shout
                  skill: notes.create
                  with: { title: "${{ run.failed_step }}" }
                  confirm: true
            \(Self.body)
            """
        let result = PlaybookFixture.load(yaml)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let playbook = try #require(result.playbook)
        #expect(playbook.onInterrupted == .resume)
        #expect(playbook.notify.map(\.event) == [.failure, .rollbackIncomplete])
        #expect(playbook.notify[0].steps.map(\.id) == ["failure_1"])
        #expect(playbook.notify[0].steps[0].confirm == false)
        #expect(playbook.notify[1].steps[0].confirm == true)
        #expect(playbook.notifyRule(for: .rollbackIncomplete)?.steps.map(\.id) == ["shout"])
        #expect(playbook.notifyRule(for: .success) == nil)
        let notification = playbook.notificationPlaybook(for: playbook.notify[0])
        #expect(notification.name == "nightly.notify.failure" && notification.isNotification && notification.notify.isEmpty)
    }

    @Test func aStatusMapsToItsEventAndALaterStatusToWaiting() {
        #expect(NotifyEvent(status: "succeeded") == .success)
        #expect(NotifyEvent(status: "rolled_back") == .failure)
        #expect(NotifyEvent(status: "interrupted") == .failure)
        #expect(NotifyEvent(status: "rollback_incomplete") == .rollbackIncomplete)
        #expect(NotifyEvent(status: "waiting") == .waiting)
        #expect(NotifyEvent(status: "running") == nil)
        #expect(NotifyEvent.rollbackIncomplete.fallbacks == [.rollbackIncomplete, .failure])
    }

    @Test func mistakesAreReportedWhereTheyAreWithASuggestion() {
        let yaml = """
            name: nightly
            on_interrupted: resme
            notify:
              falure:
                skill: debug.echo
                with: { value: 1 }
              success:
                - skill: debug.ecko
                  with: { value: 1 }
                - skill: debug.echo
                  with: { value: "${{ run.stauts }} ${{ run.started }}" }
                - skill: mail.send
                  with: { to: "anna@" }
                - playbook: reprot
            \(Self.body)
            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "2:17: error: 'on_interrupted' must be one of resume, rollback, leave; did you mean 'resume'?",
                "4:3: error: unknown notify event 'falure'; did you mean 'failure'? (events: failure, rollback_incomplete, waiting, missed, success)",
                "8:14: error: step 'success_1' uses unknown skill 'debug.ecko'; did you mean 'debug.echo'?",
                "11:31: error: no field 'stauts' in object with fields: id, playbook, status, error, failed_step, duration, trigger, scheduled_at, started, link, missed",
                "12:14: warning: step 'success_3' uses skill 'mail.send', which is not available here: no mail account configured",
                "13:19: error: step 'success_3' parameter 'to' must be an email address like ada@example.com, got 'anna@'",
                "14:17: error: notify step 'success_4' runs unknown playbook 'reprot'",
            ])
    }

    @Test func theWorkspaceDefaultFillsTheEventsAPlaybookDoesNotMapAndIsCheckedWhereItIsWritten() throws {
        var diagnostics: [Diagnostic] = []
        let node = try #require(
            try YAMLLoader().load(
                "notify:\n  failure:\n    skill: debug.echo\n    with: { value: \"${{ run.nope }}\" }\n  success:\n    skill: debug.echo\n    with: { value: 2 }\n",
                file: "skillbook.yaml")?["notify"])
        let defaults = PlaybookDecoder().decodeNotify(node, diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty)
        let yaml = "name: nightly\nnotify:\n  success: { skill: debug.echo, with: { value: 3 } }\n\(Self.body)\n"
        let result = PlaybookLoader(registry: PlaybookFixture.registry, defaultNotify: defaults).load(yaml, file: "nightly.yaml")
        #expect(result.diagnostics.map(\.description) == [
            "skillbook.yaml:4:29: error: no field 'nope' in object with fields: id, playbook, status, error, failed_step, duration, trigger, scheduled_at, started, link, missed"
        ])
        var fixed = PlaybookDecoder().decodeNotify(node, diagnostics: &diagnostics)
        fixed[0].steps[0].with = []
        let loaded = try #require(
            PlaybookLoader(registry: PlaybookFixture.registry, defaultNotify: [fixed[1]]).load(yaml, file: "nightly.yaml").playbook)
        // The playbook's own `success` wins over the workspace's.
        #expect(loaded.notify.count == 1 && loaded.notify[0].steps[0].location.file == "nightly.yaml")
    }
}
