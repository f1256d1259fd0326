import Foundation
import SkillbookCore
import Testing

/// Decodes YAML into a playbook with the decoder alone (no skills, no checker).
private func decode(_ yaml: String) throws -> (playbook: Playbook?, diagnostics: [String]) {
    let root = try YAMLLoader().load(yaml, file: "p.yaml")
    var diagnostics: [Diagnostic] = []
    let playbook = PlaybookDecoder().decode(root, file: "p.yaml", diagnostics: &diagnostics)
    return (playbook, diagnostics.map { "\($0.location.map { "\($0.line):\($0.column): " } ?? "")\($0.message)" })
}

private func at(_ line: Int, _ column: Int) -> SkillbookCore.SourceLocation {
    SkillbookCore.SourceLocation(file: "p.yaml", line: line, column: column)
}

/// The source of a mapped value that is one template, or its literal value as JSON.
private func written(_ value: MappedValue?) -> String? {
    guard let value else { return nil }
    switch value.content {
    case .template(let template): return template.source
    case .literal(let literal): return JSONText.encode(literal)
    case .array: return "<array>"
    case .object: return "<object>"
    }
}

@Suite struct PlaybookDecoderTests {
    static let everyKey = """
        name: every-key
        description: Uses every key.
        triggers:
          - morning briefing
          - brief me for {day}
        env: [HOME, API_TOKEN]
        on_failure: continue
        timeout: 5m
        inputs:
          day: { type: string, format: date, default: "${{ today() }}" }
          count:
            type: integer
            minimum: 1
            maximum: 10
            default: 3
          who: { type: string, description: Who to greet., minLength: 1 }
          tags: { type: array, items: { type: string }, default: [a, b] }
        steps:
          - id: first
            skill: debug.echo
            with: { value: "${{ inputs.who }}" }
            retry: 3
            timeout: 30
          - id: second
            skill: notes.create
            when: "${{ inputs.count > 1 }}"
            retry: { attempts: 4, backoff: fixed, delay: 500ms }
            timeout: 2m
            on_failure: stop
            confirm: false
            with:
              title: "Hi ${{ steps.first.output.value }}"
              body: plain text
              tags: [x, "${{ inputs.day }}"]
          - id: third
            skill: notes.list
            retry: { attempts: 2 }
            on_failure: rollback
            confirm: true
        outputs:
          note: "${{ steps.second.output.id }}"
          fixed: 42
          both: ["${{ inputs.day }}", literal]

        """

    @Test func everyTopLevelKeyIsDecoded() throws {
        let (decoded, diagnostics) = try decode(Self.everyKey)
        #expect(diagnostics == [])
        let playbook = try #require(decoded)
        #expect(playbook.name == "every-key")
        #expect(playbook.description == "Uses every key.")
        #expect(playbook.triggers == ["morning briefing", "brief me for {day}"])
        #expect(playbook.env == ["HOME", "API_TOKEN"])
        #expect(playbook.onFailure == .continue)
        #expect(playbook.timeout == 300)
        #expect(playbook.file == "p.yaml")
        #expect(playbook.steps.map(\.id) == ["first", "second", "third"])
        #expect(playbook.outputs.map(\.name) == ["note", "fixed", "both"])
        #expect(written(playbook.outputs[0].value) == "${{ steps.second.output.id }}")
        #expect(playbook.outputs[1].value.literalValue == 42)
        #expect(written(playbook.outputs[2].value) == "<array>")
        #expect(playbook.outputs[0].value.location == at(41, 9))
    }

    @Test func inputsKeepTheirSchemaAndAnExpressionDefaultApart() throws {
        let playbook = try #require(try decode(Self.everyKey).playbook)
        #expect(playbook.inputs.map(\.name) == ["day", "count", "who", "tags"])

        let day = playbook.inputs[0]
        #expect(day.schema.type == .string)
        #expect(day.schema.format == "date")
        // An expression default is kept out of the schema and evaluated per run.
        #expect(day.schema.defaultValue == nil)
        #expect(written(day.defaultExpression) == "${{ today() }}")
        #expect(day.defaultExpression?.location == at(10, 47))
        #expect(!day.isRequired)
        #expect(day.location == at(10, 3))

        let count = playbook.inputs[1]
        #expect(count.schema.type == .integer)
        #expect(count.schema.minimum == 1)
        #expect(count.schema.maximum == 10)
        #expect(count.schema.defaultValue == 3)
        #expect(count.defaultExpression == nil)
        #expect(!count.isRequired)

        let who = playbook.inputs[2]
        #expect(who.schema.description == "Who to greet.")
        #expect(who.schema.minLength == 1)
        #expect(who.isRequired)

        let tags = playbook.inputs[3]
        #expect(tags.schema.typeDescription == "array of string")
        #expect(tags.schema.defaultValue == ["a", "b"])
        #expect(!tags.isRequired)
    }

    @Test func stepsKeepEveryKeyAndWhereItWasWritten() throws {
        let playbook = try #require(try decode(Self.everyKey).playbook)
        let first = playbook.steps[0]
        #expect(first.skill == "debug.echo")
        #expect(first.retry == RetryPolicy(attempts: 3))
        #expect(first.retry.backoff == .exponential)
        #expect(first.retry.delay == 1)
        #expect(first.timeout == 30)
        #expect(first.when == nil)
        #expect(first.onFailure == nil)
        #expect(first.confirm == nil)
        #expect(first.location == at(19, 5))
        #expect(first.skillLocation == at(20, 12))
        #expect(first.withLocation == at(21, 5))
        #expect(first.with.map(\.name) == ["value"])
        #expect(written(first.with[0].value) == "${{ inputs.who }}")
        #expect(first.with[0].keyLocation == at(21, 13))

        let second = playbook.steps[1]
        #expect(written(second.when) == "${{ inputs.count > 1 }}")
        #expect(second.when?.location == at(26, 11))
        #expect(second.retry == RetryPolicy(attempts: 4, backoff: .fixed, delay: 0.5))
        #expect(second.timeout == 120)
        #expect(second.onFailure == .stop)
        #expect(second.confirm == false)
        #expect(second.with.map(\.name) == ["title", "body", "tags"])
        #expect(written(second.with[0].value) == "Hi ${{ steps.first.output.value }}")
        #expect(second.with[1].value.literalValue == "plain text")
        // A list with an expression inside keeps its items apart: one literal, one template.
        guard case .array(let items) = second.with[2].value.content else {
            Issue.record("tags should be an array of mapped values")
            return
        }
        #expect(items.map(written) == ["\"x\"", "${{ inputs.day }}"])
        #expect(items[1].location == at(34, 17))

        let third = playbook.steps[2]
        #expect(third.retry == RetryPolicy(attempts: 2))
        #expect(third.onFailure == .rollback)
        #expect(third.confirm == true)
        #expect(third.with.isEmpty)
        // Without `with:` problems about parameters point at the step.
        #expect(third.withLocation == third.location)
    }

    @Test func onWorkerLossIsWaitOrRollbackAndAnythingElseIsPositioned() throws {
        let base = "name: p\nsteps:\n  - { id: a, skill: debug.echo }\n"
        #expect(try decode(base).playbook?.onWorkerLoss == .wait)
        #expect(try decode("on_worker_loss: rollback\n" + base).playbook?.onWorkerLoss == .rollback)
        #expect(try decode("on_worker_loss: wait\n" + base).playbook?.onWorkerLoss == .wait)
        #expect(try decode("on_worker_loss: rolback\n" + base).diagnostics == ["1:17: 'on_worker_loss' must be one of wait, rollback; did you mean 'rollback'?"])
        #expect(try decode("on_worker_loss: [rollback]\n" + base).diagnostics == ["1:17: 'on_worker_loss' must be one of wait, rollback"])
        #expect(try decode("on_worker_los: rollback\n" + base).diagnostics == ["1:1: unknown playbook key 'on_worker_los'; did you mean 'on_worker_loss'?"])
    }

    @Test func defaultsWhenOptionalKeysAreAbsent() throws {
        let (decoded, diagnostics) = try decode("name: tiny\nsteps:\n  - id: a\n    skill: debug.echo\n    with:\n")
        #expect(diagnostics == [])
        let playbook = try #require(decoded)
        #expect(playbook.description == "")
        #expect(playbook.triggers == [])
        #expect(playbook.env == [])
        #expect(playbook.inputs.isEmpty)
        #expect(playbook.onFailure == .rollback)
        #expect(playbook.timeout == nil)
        #expect(playbook.outputs.isEmpty)
        // An empty `with:` is no parameters, not an error.
        #expect(playbook.steps[0].with.isEmpty)
        #expect(playbook.steps[0].retry == .none)
        #expect(playbook.steps[0].timeout == nil)
    }

    @Test func durationsAndRetryForms() throws {
        func step(_ keys: String) throws -> (step: PlaybookStep?, diagnostics: [String]) {
            let (playbook, diagnostics) = try decode("name: d\nsteps:\n  - id: a\n    skill: debug.echo\n\(keys)")
            return (playbook?.steps.first, diagnostics)
        }
        #expect(try step("    timeout: 1.5\n").step?.timeout == 1.5)
        #expect(try step("    timeout: 250ms\n").step?.timeout == 0.25)
        #expect(try step("    timeout: 1h\n").step?.timeout == 3600)
        #expect(try step("    timeout: 2d\n").step?.timeout == 172_800)
        #expect(try step("    retry: { attempts: 3, delay: 0 }\n").step?.retry == RetryPolicy(attempts: 3, delay: 0))
        #expect(try step("    retry: { backoff: fixed, delay: 2 }\n").step?.retry == RetryPolicy(attempts: 1, backoff: .fixed, delay: 2))
        #expect(try step("    retry: 100\n").step?.retry.attempts == 100)

        #expect(try step("    timeout: soon\n").diagnostics == ["5:14: 'timeout' must be a positive duration such as 30, 30s, 5m or 1h"])
        #expect(try step("    timeout: 0\n").diagnostics == ["5:14: 'timeout' must be a positive duration such as 30, 30s, 5m or 1h"])
        #expect(try step("    retry: 101\n").diagnostics == ["5:12: 'retry' attempts must be between 1 and 100"])
        #expect(
            try step("    retry: [1]\n").diagnostics
                == ["5:12: 'retry' must be a number of attempts or a mapping with 'attempts', 'backoff' and 'delay'"])
        let retryProblems = try step("    retry: { attempts: 2.5, backoff: linear, delay: -1, tries: 2 }\n").diagnostics
        #expect(
            retryProblems == [
                "5:24: 'attempts' must be a whole number between 1 and 100",
                "5:38: 'backoff' must be fixed or exponential",
                "5:53: 'delay' must be a positive duration such as 30, 30s, 5m or 1h",
                "5:57: unknown retry key 'tries'",
            ])
        #expect(try step("    retry: { attemps: 2 }\n").diagnostics == ["5:14: unknown retry key 'attemps'; did you mean 'attempts'?"])
        #expect(try step("    confirm: maybe\n").diagnostics == ["5:14: 'confirm' must be true or false"])
    }

    @Test func playbookLevelProblemsAreAllReported() throws {
        let (playbook, diagnostics) = try decode(
            """
            name: Bad Name
            description: [not, text]
            triggers: hello
            env: [HOME, 3]
            on_failure: undo
            timeout: never
            schedule: { cron: "* 25 * * *" }
            inputs:
              my-input: { type: string }
            steps:
              - just text
            outputs: [a]

            """)
        // The decoder returns what it could read; the loader refuses it because of the errors.
        #expect(playbook?.name == "Bad Name")
        #expect(
            diagnostics == [
                "1:7: playbook name 'Bad Name' must be lowercase letters, digits and '-', starting with a letter",
                "2:14: 'description' must be text, not a list",
                "3:11: 'triggers' must be a list of text",
                "4:13: each entry of 'env' must be text, not integer",
                "5:13: 'on_failure' must be one of rollback, stop, continue",
                "6:10: 'timeout' must be a positive duration such as 30, 30s, 5m or 1h",
                "7:22: schedule.cron: field 2 (hour): 25 is out of range 0-23",
                "9:3: input name 'my-input' must start with a letter and use only letters, digits and '_'",
                "11:5: step 1 must be a mapping with 'id' and 'skill', not a scalar",
                "12:10: 'outputs' must be a mapping of names to values",
            ])
    }

    @Test func stepIDsAndNamesFollowTheIdentifierRules() {
        #expect(PlaybookDecoder.isValidIdentifier("fetch_all2"))
        #expect(PlaybookDecoder.isValidIdentifier("_x"))
        #expect(!PlaybookDecoder.isValidIdentifier("2fetch"))
        #expect(!PlaybookDecoder.isValidIdentifier("fetch-all"))
        #expect(!PlaybookDecoder.isValidIdentifier(""))
        #expect(!PlaybookDecoder.isValidIdentifier("naïve"))
        #expect(PlaybookDecoder.isValidPlaybookName("morning-briefing"))
        #expect(PlaybookDecoder.isValidPlaybookName("a1_b"))
        #expect(!PlaybookDecoder.isValidPlaybookName("Morning"))
        #expect(!PlaybookDecoder.isValidPlaybookName("-x"))
        #expect(!PlaybookDecoder.isValidPlaybookName(""))
    }

    @Test func anExpressionSyntaxErrorPointsIntoTheQuotedText() throws {
        let (_, diagnostics) = try decode(
            "name: d\nsteps:\n  - id: a\n    skill: debug.echo\n    with:\n      value: 'x ${{ inputs.a ( }}'\n")
        #expect(diagnostics == ["6:30: unexpected '('"])
    }
}
