import Testing

@testable import SkillbookCore
@testable import SkillbookHost

/// The playbooks the host writes (`skillbook call`'s one-step playbook, `skillbook new`'s skeleton)
/// write every value through `YAMLText`: what libyaml reads back is what was written, with the
/// characters YAML folds or refuses (NEL, U+2028/2029, DEL, C1, U+FFFE) and keys past libyaml's
/// implicit-key limit (issue 28.2–4).
@Suite struct GeneratedPlaybookTextTests {
    static let hostile = "a\u{85}b \u{2028}c\u{2029}d\u{7F}e\u{9F}f\u{FFFE}g\u{FFFF}h\u{FEFF}i\u{0}\t\"\\: # -"
    static let longKey = String(repeating: "k\u{85}", count: 700)

    static let descriptor = SkillDescriptor(
        id: "mcp.tool" + hostile, summary: "Does\u{2028}things. " + hostile, kind: .query,
        parameters: .object(
            [longKey: .string("About\u{85} it " + hostile), "plain": .integer("A\u{2029}number."), "other": .boolean()],
            required: [longKey, "plain"]),
        output: .object([:]))

    private func readBack(_ text: String) throws -> ValueObject {
        try #require(try YAMLLoader().load(text, file: "generated.yaml")?.value.objectValue)
    }

    @Test func theCallPlaybookReadsBackIdentical() throws {
        let text = CallPlaybook.text(Self.descriptor, given: [Self.longKey, "plain", "other"])
        let root = try readBack(text)
        #expect(root["name"] == .string(CallPlaybook.name(of: Self.descriptor.id)))
        #expect(root["description"] == .string("skillbook call \(Self.descriptor.id)"))
        let inputs = try #require(root["inputs"]?.objectValue)
        #expect(inputs.map(\.key) == [Self.longKey, "plain", "other"])
        for (name, schema) in Self.descriptor.parameters.fields.properties {
            #expect(inputs[name] == JSONSchemaExport.export(schema), "input \(name.prefix(10))")
        }
        let step = try #require(root["steps"]?.arrayValue?.first?.objectValue)
        #expect(step["skill"] == .string(Self.descriptor.id))
        #expect(step["with"]?.objectValue?[Self.longKey] == .string("${{ inputs.\(Self.longKey) }}"))
        #expect(step["with"]?.objectValue?["plain"] == "${{ inputs.plain }}")
    }

    @Test func theSkeletonReadsBackIdentical() throws {
        let text = PlaybookSkeleton.text(name: "evening", skills: [Self.descriptor])
        let root = try readBack(text)
        #expect(root["name"] == "evening")
        #expect(root["description"] == "TODO say what evening does.")
        let step = try #require(root["steps"]?.arrayValue?.first?.objectValue)
        #expect(step["skill"] == .string(Self.descriptor.id))
        let with = try #require(step["with"]?.objectValue)
        #expect(with.map(\.key) == [Self.longKey, "plain"])
        let properties = Self.descriptor.parameters.fields.properties
        for (name, schema) in properties where name != "other" {
            #expect(with[name] == PlaybookSkeleton.placeholder(schema, name: name), "parameter \(name.prefix(10))")
        }
        // Comments stay comments: nothing of a summary or description turned into content.
        #expect(Set(root.map(\.key)) == ["name", "description", "steps"])
    }

    /// Names are written plain only when YAML reads them back as the same string.
    @Test func namesArePlainOnlyWhenTheyReadBackIdentical() throws {
        #expect(YAMLText.scalar("notes.create") == "notes.create")
        #expect(YAMLText.scalar("morning-briefing") == "morning-briefing")
        for name in ["yes", "No", "on", "null", "true", "1e3", "", "-a", "a: b", "a #b", "é", "a\u{85}", Self.longKey] {
            #expect(YAMLText.scalar(name) == YAMLText.quoted(name))
            let root = try readBack("k: " + YAMLText.scalar(name) + "\n")
            #expect(root["k"] == .string(name))
        }
    }
}
