import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct SchemaCommandTests {
    private func schema() async throws -> JSONObject {
        let run = await skillbook(["schema"], in: TemporaryDirectory())
        #expect(run.code == 0)
        #expect(run.err.isEmpty)
        return try #require(try parseJSON(run.out) as? JSONObject)
    }

    @Test func isAJSONSchemaOfThePlaybookFormat() async throws {
        let schema = try await schema()
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["type"] as? String == "object")
        #expect(schema["required"] as? [String] == ["name", "steps"])
        #expect(schema["additionalProperties"] as? Bool == false)
        #expect(schema.object("properties")?.object("steps")?.object("items")?["$ref"] as? String == "#/$defs/step")
    }

    @Test func stepSkillsAreTheRegisteredOnes() async throws {
        let step = try #require(try await schema().object("$defs")?.object("step"))
        let skills = try #require(step.object("properties")?.object("skill")?["enum"] as? [String])
        #expect(skills.contains("notes.create"))
        #expect(skills == skills.sorted())
        let builtins = BuiltinSkills.all(
            environment: SkillEnvironment(stateDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("unused")))
        #expect(skills == builtins.map(\.descriptor.id).sorted())
        #expect(step["required"] as? [String] == ["id"])
        // A step calls a skill or a sub-playbook.
        #expect((step["oneOf"] as? [JSONObject])?.map { $0["required"] as? [String] } == [["skill"], ["playbook"]])
    }

    @Test func itsKeysAreTheKeysTheDecoderAccepts() async throws {
        let schema = try await schema()
        let supported = { (keys: [String], unsupported: Set<String>) in Set(keys).subtracting(unsupported) }
        #expect(
            Set(try #require(schema.object("properties")).keys)
                == supported(PlaybookDecoder.playbookKeys, PlaybookDecoder.unsupportedPlaybookKeys))
        let defs = try #require(schema.object("$defs"))
        #expect(
            Set(try #require(defs.object("step")?.object("properties")).keys)
                == supported(PlaybookDecoder.stepKeys, PlaybookDecoder.unsupportedStepKeys))
        #expect(Set(try #require(defs.object("rollbackStep")?.object("properties")).keys) == PlaybookDecoder.rollbackStepKeys)
        #expect(Set(try #require(defs.object("parameterSchema")?.object("properties")).keys) == Set(SchemaDecoder.keywords))
    }

    @Test func notifyApprovalAndMailSendAreDescribed() async throws {
        let schema = try await schema()
        let properties = try #require(schema.object("properties"))
        #expect(Set(try #require(properties.object("notify")?.object("properties")).keys) == Set(NotifyEvent.allCases.map(\.rawValue)))
        let timeout = try #require(properties.object("approval")?.object("properties")?.object("timeout")?["anyOf"] as? [JSONObject])
        #expect(timeout.first?["exclusiveMinimum"] as? Int == 0)
        let pattern = try #require(timeout.last?["pattern"] as? String)
        let matches = { (text: String) in text.range(of: pattern, options: .regularExpression) != nil }
        #expect(matches("4h") && matches("0.5s") && matches("90"), "a positive duration")
        #expect(!matches("0s") && !matches("0") && !matches("soon"), "as the decoder refuses 0s")
        let step = try #require(schema.object("$defs")?.object("step")?.object("properties"))
        #expect(step.object("approval") != nil)
        let skills = try #require(step.object("skill")?["enum"] as? [String])
        #expect(skills.contains("mail.send") && skills.contains("notify.send") && skills.contains("web.request"))
    }

    @Test func retryAndTimeoutFollowTheDecoder() async throws {
        let properties = try #require(try await schema().object("$defs")?.object("step")?.object("properties"))
        let retry = try #require(properties.object("retry")?["anyOf"] as? [JSONObject])
        #expect(retry.first?["maximum"] as? Int == 100)
        // A retry delay of 0 is accepted by the decoder, a timeout of 0 is not.
        let delay = try #require(retry.last?.object("properties")?.object("delay")?["anyOf"] as? [JSONObject])
        #expect(delay.first?["minimum"] as? Int == 0)
        let timeout = try #require(properties.object("timeout")?["anyOf"] as? [JSONObject])
        #expect(timeout.first?["exclusiveMinimum"] as? Int == 0)
    }
}
