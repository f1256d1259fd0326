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
        // Only the escapes JSON allows (the pattern applies to the string's JSON text): a regular
        // expression's \. must be written \\. or the server cannot read the answer.
        #expect(try literal.wholeMatch(in: #"[a-z]+@[a-z]+\.com"#) == nil)
        #expect(try literal.wholeMatch(in: #"[a-z]+@[a-z]+\\.com"#) != nil)
        #expect(try literal.wholeMatch(in: #"line\nnext \"quoted\" caf\u00e9"#) != nil)
        // A text parameter refers only to text fields: not to status (an integer) or links.*.url (a list).
        #expect(
            title[1]["pattern"]
                == .string(PlanSchema.referencePattern(fields: ["url", "title", "description", "first_paragraph", "language", "id"])))
    }

    @Test func aListParameterRefersToListsAndItsItemsToTexts() throws {
        let schema = PlanSchema.schema(offers("files.list", "files.copy"))
        let items = try #require(schema["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["items"]?["anyOf"]?.arrayValue)
        let paths = try #require(items[1]["properties"]?["with"]?["properties"]?["paths"]?["anyOf"]?.arrayValue)
        #expect(paths[1]["pattern"] == .string(PlanSchema.referencePattern(fields: ["items.*.path", "items.*.modified", "copied.*.from", "copied.*.to", "created"])))
        // Each item of a literal list: a text, or a reference to a text field (there is none here).
        #expect(paths[0]["type"] == "array")
        #expect(paths[0]["items"]?["type"] == "string")
        let regex = try Regex(try #require(paths[1]["pattern"]?.stringValue))
        #expect("${{ steps.s1.output.items.*.path }}".wholeMatch(of: regex) != nil)
        #expect("${{ steps.s1.output.count }}".wholeMatch(of: regex) == nil)
        // A parameter no output field fits is a literal only: `glob` (a text) has no reference
        // branch, since both skills give only lists, numbers and booleans.
        let glob = try #require(items[0]["properties"]?["with"]?["properties"]?["glob"])
        #expect(glob["anyOf"] == nil)
        #expect(glob["type"] == "string")
        #expect(glob["pattern"] == .string(PlanSchema.noTemplatePattern))
    }

    @Test func optionalParametersWithDefaultsAreOfferedOnlyWhenTheRequestNamesThem() throws {
        let offer = try #require(shippedOffers["files.list"])
        #expect(offer.trimmed(for: "list the files in /tmp recursively").parameters.properties.map(\.name) == ["root", "glob", "recursive"])
        #expect(offer.trimmed(for: "list the files in /tmp").parameters.properties.map(\.name) == ["root", "glob"])
        let join = try #require(shippedOffers["text.join"])
        #expect(join.trimmed(for: "join the titles with a comma separator").parameters.properties.map(\.name) == ["items", "separator"])
    }

    @Test func aPlanHasAtMostOneStepMoreThanTheRequestHasClauses() throws {
        let format = PlanSchema.responseFormat(offers("notes.create"), maxSteps: 3)
        #expect(format["json_schema"]?["schema"]?["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["maxItems"] == 3)
        #expect(PlanSchema.schema(offers("notes.create"))["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["maxItems"] == nil)
    }

    @Test func referencesAreLimitedToOutputFieldsIncludingListItemFields() throws {
        let pattern = PlanSchema.referencePattern(offers("files.list"))
        #expect(pattern.hasPrefix(#"^\$\{\{ steps\.s[1-9]\.output\.("#))
        #expect(pattern.contains(#"|items\.\*\.path|"#))
        #expect(pattern.hasSuffix(#") \}\}$"#))
        let regex = try Regex(pattern)
        #expect("${{ steps.s1.output.items.*.path }}".wholeMatch(of: regex) != nil)
        #expect("${{ steps.s1.output.items | join }}".wholeMatch(of: regex) == nil)
        #expect("${{ steps.s1.output.invented }}".wholeMatch(of: regex) == nil)
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
