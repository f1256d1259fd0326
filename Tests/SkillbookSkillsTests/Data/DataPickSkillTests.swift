import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct DataPickSkillTests {
    static let people: Value = [
        ["id": 1, "name": "Anna", "owner": ["login": "anna", "email": "a@x"], "extra": true],
        ["id": 2, "owner": "none"],
        ["name": "Cleo", "owner": ["email": "c@x"], "id": nil],
    ]

    func pick(_ harness: Harness, _ fields: Value) async throws -> Value {
        try await harness.run("data.pick", ["items": Self.people, "fields": fields])["items"] ?? .null
    }

    @Test func keepsOnlyTheFieldsInTheOrderGiven() async throws {
        try await withHarness { (harness) async throws in
            let picked = try await pick(harness, ["name", "id"])
            #expect(picked == [["name": "Anna", "id": 1], ["id": 2], ["name": "Cleo", "id": nil]])
            let keys = try #require(picked.arrayValue?.first?.objectValue?.keys)
            #expect(keys == ["name", "id"])
        }
    }

    @Test func dottedPathsKeepTheirNesting() async throws {
        try await withHarness { (harness) async throws in
            let picked = try await pick(harness, ["owner.login", "id"])
            #expect(picked == [["owner": ["login": "anna"], "id": 1], ["id": 2], ["id": nil]])
            let whole = try await pick(harness, ["owner.login", "owner"])
            #expect(whole == [["owner": ["login": "anna", "email": "a@x"]], ["owner": "none"], ["owner": ["email": "c@x"]]])
            let both = try await pick(harness, ["owner.email", "owner.login"])
            #expect(both == [["owner": ["email": "a@x", "login": "anna"]], [:], ["owner": ["email": "c@x"]]])
        }
    }

    @Test func missingFieldsAreLeftOut() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await pick(harness, ["nope", "owner.nope"]) == [[:], [:], [:]])
            #expect(try await harness.run("data.pick", ["items": [], "fields": ["a"]]) == ["items": []])
        }
    }

    @Test func badFieldsAreClearErrors() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("data.pick")
            await #expect(
                throws: SkillError(
                    "fields[1] '.x' is not a field path; write a field name, or names joined by dots for nested fields (owner.login)")
            ) {
                _ = try await skill.run(["items": Self.people, "fields": ["id", ".x"]], context: harness.context)
            }
            await #expect(throws: SkillError("fields[0] must be a field name (text), got integer")) {
                _ = try await skill.run(["items": Self.people, "fields": [3]], context: harness.context)
            }
            let schema = skill.descriptor.parameters
            #expect(!SchemaValidator.validate(["items": [], "fields": []], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["items": [], "fields": ["a."]], against: schema).isEmpty)
        }
    }
}
