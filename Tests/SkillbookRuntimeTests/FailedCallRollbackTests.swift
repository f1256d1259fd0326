import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookTesting
import Testing

/// Issue 10 item 13: a failed call of an idempotent skill that can undo a failed call (its undo
/// needs only the parameters) is compensated on rollback like a completed one.
@Suite struct FailedCallRollbackTests {
    /// `test.pack`: "writes" its `name` to `written`, then fails when `fail` is set; undo removes it.
    static func packSkill(written: Recorder<String>, undone: Recorder<String>, undoesFailedCalls: Bool, idempotent: Bool = true)
        -> ClosureSkill
    {
        let descriptor = SkillDescriptor(
            id: "test.pack", summary: "Packs.", kind: .action,
            parameters: .object(["name": .string(), "fail": .boolean()], required: ["name"]), output: .object(["size": .integer()]),
            idempotent: idempotent, undoesFailedCalls: undoesFailedCalls)
        return ClosureSkill(descriptor) { parameters, _ in
            written.append(parameters["name"]?.stringValue ?? "?")
            if parameters["fail"]?.boolValue == true { throw SkillError("disk full after half the files") }
            return ["size": 1]
        } compensate: { call in
            undone.append("\(call.parameters["name"]?.stringValue ?? "?") output=\(JSONText.encode(call.output))")
        }
    }

    static let playbook = """
        name: packing
        steps:
          - { id: first, skill: test.pack, with: { name: a } }
          - id: second
            skill: test.pack
            retry: { attempts: 2, delay: 0 }
            with: { name: b, fail: true }

        """

    @Test func aFailedCallIsUndoneOnceWhenItsSkillCanUndoIt() async throws {
        let written = Recorder<String>()
        let undone = Recorder<String>()
        let fixture = try EngineFixture(extra: [Self.packSkill(written: written, undone: undone, undoesFailedCalls: true)])
        let result = try await fixture.run(Self.playbook)
        #expect(result.status == .rolledBack)
        #expect(written.values == ["a", "b", "b"])
        #expect(undone.values == ["b output=null", "a output={\"size\":1}"], "newest first, the failed call once")
        #expect(result.steps.map(\.status) == [.compensated, .compensated])
        #expect(result.steps[1].error == "disk full after half the files")
        #expect(
            fixture.events.types.suffix(6) == [
                "rollback.started", "compensation.started", "compensation.succeeded", "compensation.started",
                "compensation.succeeded", "run.finished",
            ])
    }

    @Test(arguments: [(undoesFailedCalls: false, idempotent: true), (undoesFailedCalls: true, idempotent: false)])
    func otherwiseAFailedCallIsNotUndone(undoesFailedCalls: Bool, idempotent: Bool) async throws {
        let written = Recorder<String>()
        let undone = Recorder<String>()
        let fixture = try EngineFixture(
            extra: [Self.packSkill(written: written, undone: undone, undoesFailedCalls: undoesFailedCalls, idempotent: idempotent)])
        let result = try await fixture.run(Self.playbook)
        #expect(result.status == .rolledBack)
        #expect(undone.values == ["a output={\"size\":1}"])
    }

    @Test func aRetryThatSucceedsReplacesTheFailedAttempt() async throws {
        let written = Recorder<String>()
        let undone = Recorder<String>()
        let attempts = Recorder<Int>()
        let descriptor = SkillDescriptor(
            id: "test.flaky", summary: "Fails once.", kind: .action, parameters: .freeObject(), output: .freeObject(),
            idempotent: true, undoesFailedCalls: true)
        let flaky = ClosureSkill(descriptor) { _, _ in
            attempts.append(1)
            written.append("flaky")
            if attempts.values.count == 1 { throw SkillError("flaked") }
            return ["ok": true]
        } compensate: { call in
            undone.append("flaky output=\(JSONText.encode(call.output))")
        }
        let fixture = try EngineFixture(extra: [flaky])
        let result = try await fixture.run(
            """
            name: flaky
            steps:
              - { id: once, skill: test.flaky, retry: { attempts: 2, delay: 0 } }
              - { id: boom, skill: debug.fail, with: { message: broke } }
            """)
        #expect(result.status == .rolledBack)
        #expect(undone.values == ["flaky output={\"ok\":true}"], "the completed attempt is undone, once")
    }
}
