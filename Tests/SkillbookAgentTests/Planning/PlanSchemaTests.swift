import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PlanSchemaTests {
    @Test func theResponseFormatHasExactlyTheNestingLlamaCppHonours() throws {
        let format = PlanSchema.responseFormat(offers("notes.create"))
        #expect(format.objectValue?.keys == ["type", "json_schema"])
        #expect(format["type"] == "json_schema")
        let inner = try #require(format["json_schema"])
        #expect(inner.objectValue?.keys == ["name", "strict", "schema"])
        #expect(inner["name"] == "plan")
        #expect(inner["strict"] == true)
        #expect(inner["schema"] == PlanSchema.schema(offers("notes.create")))
    }

    @Test func stepsAreAnAnyOfOverTheOfferedSkillsOrAQuestion() throws {
        let schema = PlanSchema.schema(offers("web.summary", "notes.create"))
        let branches = try #require(schema["anyOf"]?.arrayValue)
        #expect(branches.count == 2)
        #expect(branches[1]["required"] == ["question"])
        let items = try #require(branches[0]["properties"]?["steps"]?["items"]?["anyOf"]?.arrayValue)
        #expect(items.map { $0["properties"]?["skill"]?["const"] } == ["web.summary", "notes.create"])
        let with = try #require(items[1]["properties"]?["with"])
        #expect(with["required"] == ["title"])
        #expect(with["additionalProperties"] == false)
        let title = try #require(with["properties"]?["title"]?["anyOf"]?.arrayValue)
        #expect(
            title[0] == [
                "type": "string", "description": "A short title for the note.", "minLength": 1, "maxLength": 200,
                "pattern": .string(PlanSchema.noTemplatePattern),
            ])
        // A literal cannot hold {{ }}: an earlier step's value can only be a reference.
        let literal = try Regex(PlanSchema.noTemplatePattern)
        #expect(try literal.wholeMatch(in: "{{ page.title }}") == nil)
        #expect(try literal.wholeMatch(in: "${{ steps.page.output.title }}") == nil)
        #expect(try literal.wholeMatch(in: "Notes {draft} from today") != nil)
        #expect(title[1]["pattern"] == .string(PlanSchema.referencePattern(offers("web.summary", "notes.create"))))
    }

    @Test func referencesAreLimitedToOutputFieldsIncludingListItemFields() throws {
        let pattern = PlanSchema.referencePattern(offers("files.list"))
        #expect(pattern.hasPrefix(#"^\$\{\{ steps\.[a-z][a-z0-9_]*\.output\.("#))
        #expect(pattern.contains(#"|items\.\*\.path|"#))
        #expect(pattern.hasSuffix(#") \}\}$"#))
        let regex = try Regex(pattern)
        #expect("${{ steps.ls.output.items.*.path }}".wholeMatch(of: regex) != nil)
        #expect("${{ steps.ls.output.items | join }}".wholeMatch(of: regex) == nil)
        #expect("${{ steps.ls.output.invented }}".wholeMatch(of: regex) == nil)
    }

    @Test func secretParametersAreNotOffered() throws {
        let offer = try #require(shippedOffers["notify.send"])
        #expect(offer.parameters.property("webhook") == nil)
        #expect(offer.parameters.property("message") != nil)
        let schema = PlanSchema.schema([offer])
        let step = try #require(schema["anyOf"]?.arrayValue?.first?["properties"]?["steps"]?["items"]?["anyOf"]?.arrayValue?.first)
        #expect(step["properties"]?["with"]?["properties"]?.objectValue?.keys == ["message", "title", "desktop"])
        #expect(!JSONText.encode(schema).contains("\"secret\""))
    }
}
