import Testing

@testable import SkillbookCore

/// An MCP-style tool whose schemas are what pydantic writes (`anyOf` with null, `$defs` and
/// `$ref`, `const`), used as a skill: it validates, exports unchanged, and its output maps into
/// later steps with load-time type checks.
@Suite struct UnionSchemaPlaybookTests {
    static let inputSchemaJSON = #"""
        {"$schema":"https://json-schema.org/draft/2020-12/schema","title":"search_issuesArguments","type":"object",\#
        "properties":{"query":{"title":"Query","type":"string","minLength":1},\#
        "limit":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}],"default":null,"title":"Limit"},\#
        "state":{"const":"open","title":"State"},"owner":{"$ref":"#/$defs/Person"}},\#
        "required":["query","owner"],"additionalProperties":false,\#
        "$defs":{"Person":{"title":"Person","type":"object","properties":{"login":{"type":"string"},\#
        "email":{"anyOf":[{"type":"string","format":"email"},{"type":"null"}],"default":null}},"required":["login"]}}}
        """#
    static let outputSchemaJSON = #"""
        {"type":"object","properties":{"count":{"type":"integer"},\#
        "top":{"anyOf":[{"$ref":"#/$defs/Issue"},{"type":"null"}]}},"required":["count","top"],\#
        "$defs":{"Issue":{"type":"object","properties":{"title":{"type":"string"},\#
        "assignee":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["title","assignee"]}}}
        """#

    static func decoded(_ json: String) throws -> Schema {
        var diagnostics: [Diagnostic] = []
        let schema = SchemaDecoder().decode(try JSONText.decode(json), diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        return try #require(schema)
    }

    static let registry: SkillRegistry = {
        do {
            let search = StubSkill(
                descriptor: SkillDescriptor(
                    id: "issues.search", summary: "Searches issues.", kind: .query,
                    parameters: try decoded(inputSchemaJSON), output: try decoded(outputSchemaJSON)))
            return try SkillRegistry(PlaybookFixture.skills + [search])
        } catch {
            fatalError("the skills must register: \(error)")
        }
    }()

    static func diagnostics(_ yaml: String) -> [String] {
        PlaybookLoader(registry: registry).load(yaml, file: "t.yaml").diagnostics.map { diagnostic in
            let position = diagnostic.location.map { "\($0.line):\($0.column): " } ?? ""
            return "\(position)\(diagnostic.severity.rawValue): \(diagnostic.message)"
        }
    }

    @Test func theParametersValidate() throws {
        let schema = try Self.decoded(Self.inputSchemaJSON)
        func problems(_ value: Value) -> [String] { SchemaValidator.validate(value, against: schema).map(\.description) }
        #expect(problems(["query": "bug", "owner": ["login": "ada"]]).isEmpty)
        #expect(problems(["query": "bug", "limit": nil, "state": "open", "owner": ["login": "ada", "email": nil]]).isEmpty)
        #expect(problems(["query": "bug", "limit": 5.0, "owner": ["login": "ada", "email": "ada@example.com"]]).isEmpty)
        #expect(
            problems(["query": "", "limit": 0, "state": "closed", "owner": ["email": "ada@"], "sort": "new"]) == [
                "query must not be empty",
                "limit matches none of the 'anyOf' alternatives: 1) must be at least 1, got 0; 2) expects null, got integer",
                "state must be 'open'; got 'closed'",
                "owner is missing required property 'login'",
                "owner.email matches none of the 'anyOf' alternatives: 1) must be an email address like ada@example.com, got 'ada@'; 2) expects null, got string",
                "value has unknown property 'sort'",
            ])
        #expect(problems(["query": "bug", "limit": "5", "owner": ["login": "ada"]]) == ["limit expects integer or null, got string"])
    }

    @Test func bothSchemasExportAsWritten() throws {
        for json in [Self.inputSchemaJSON, Self.outputSchemaJSON] {
            let exported = JSONSchemaExport.export(try Self.decoded(json))
            #expect(JSONText.encode(exported) == JSONText.encode(try JSONText.decode(json)))
        }
    }

    @Test func theOutputMapsIntoLaterStepsWithUnionsNarrowedByDefaultAndNullChecks() {
        let good = """
            name: triage
            inputs:
              limit: { anyOf: [{ type: integer, minimum: 1 }, { type: "null" }], default: null }
            steps:
              - id: search
                skill: issues.search
                with: { query: bug, limit: "${{ inputs.limit }}", owner: { login: ada } }
              - id: say
                skill: text.template
                with:
                  template: "${{ upper(default(steps.search.output.top.assignee, 'nobody')) }}"
                  values: { n: "${{ steps.search.output.count }}" }
              - id: nap
                skill: debug.sleep
                when: "${{ steps.search.output.top != null && lower(steps.search.output.top.title) == 'x' }}"
                with: { seconds: "${{ default(inputs.limit, 1) }}" }
              - id: again
                skill: debug.sleep
                when: "${{ steps.search.output.top == null || lower(steps.search.output.top.title) == 'x' }}"
                with: { seconds: 1 }

            """
        #expect(Self.diagnostics(good) == [])
        let bad = """
            name: triage
            steps:
              - id: search
                skill: issues.search
                with: { query: bug, owner: { login: ada } }
              - id: say
                skill: text.template
                with:
                  template: "${{ upper(steps.search.output.top.assignee) }}"
                  values: { a: "${{ steps.search.output.top.titel }}", b: "${{ steps.search.output.top.title.x }}" }
              - id: nap
                skill: debug.sleep
                with: { seconds: "${{ steps.search.output.top.title }}" }

            """
        #expect(
            Self.diagnostics(bad) == [
                "9:28: error: function 'upper' expects string as argument 1, got string | null; it may be null: use default(…, …) or check it with '!= null &&' first",
                "10:49: error: no field 'titel' in any alternative of object | null (fields: title, assignee); did you mean 'title'?",
                "10:98: error: cannot access field 'x' of string | null",
                "13:22: error: step 'nap' parameter 'seconds' expects number, got string | null",
            ])
    }

    @Test func refsResolveOnceAndCyclesAndDanglingRefsAreRefusedWithPositions() {
        let yaml = """
            name: refs
            inputs:
              tree:
                $ref: "#/$defs/node"
                $defs:
                  node: { type: object, properties: { kids: { type: array, items: { $ref: "#/$defs/node" } } } }
              where: { $ref: "#/$defs/adress", $defs: { address: { type: string } } }
              far: { $ref: "https://example.com/schema.json" }
              odd: { anyof: [{ type: string }] }
              many: { type: [string, integr] }
            steps:
              - id: a
                skill: debug.echo
                with: { value: 1 }

            """
        #expect(
            PlaybookFixture.diagnostics(yaml) == [
                "6:79: error: '$ref' '#/$defs/node' leads back to itself (#/$defs/node → #/$defs/node/properties/kids → #/$defs/node/properties/kids/items → #/$defs/node); recursive schemas are not supported",
                "7:18: error: '$ref' '#/$defs/adress' points to nothing: #/$defs has no 'adress'; did you mean 'address'?",
                "8:16: error: '$ref' 'https://example.com/schema.json' is not local; only references inside the same schema ('#/$defs/NAME') are supported",
                "9:10: error: unknown schema keyword 'anyof'; did you mean 'anyOf'?",
                "10:26: error: unknown type 'integr'; did you mean 'integer'?",
            ])
    }

    @Test func annotationsBooleanSchemasAndLegalEdgeCasesLoad() throws {
        let json = #"""
            {"$id":"https://example.com/a","$comment":"c","title":"T","deprecated":true,"readOnly":false,"writeOnly":false,\#
            "type":["object","null"],"properties":{"a":true,"b":false,"n":{"type":"string","minLength":2.0},\#
            "e":{"enum":[]},"t":{"prefixItems":[{"type":"integer"}],"items":false}},\#
            "patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":{"type":"string"},\#
            "propertyNames":{"maxLength":5},"dependentRequired":{"a":["n"]},"not":{"type":"object","required":["zz"]}}
            """#
        let schema = try Self.decoded(json)
        #expect(JSONText.encode(JSONSchemaExport.export(schema)) == JSONText.encode(try JSONText.decode(json)))
        func problems(_ value: Value) -> [String] { SchemaValidator.validate(value, against: schema).map(\.description) }
        #expect(problems(nil).isEmpty)
        #expect(problems(["a": 1, "n": "é!", "x-1": 2, "other": "s", "t": [1]]).isEmpty)
        #expect(
            problems(["a": 1, "b": 2, "n": "\u{1F4A9}", "x-1": "2", "other": 3, "e": 1, "t": [1, 2], "toolong": "", "zz": 1]) == [
                "b is not allowed here (its schema is false)",
                "n must be at least 2 characters long, got 1",
                "x-1 expects integer, got string",
                "other expects string, got integer",
                "e cannot have any value (its 'enum' is empty)",
                "t[1] is not allowed here (its schema is false)",
                "value has a property name 'toolong' that must be at most 5 characters long, got 7",
                "zz expects string, got integer",
                "value must not match the schema under 'not'",
            ])
        #expect(problems(["n": "ab", "b": nil]) == ["b is not allowed here (its schema is false)"])
        #expect(problems(["a": 1]) == ["value has 'a', so it must also have 'n'"])
    }

    @Test func enumAndConstCompareNumbersMathematicallyAtAnyDepth() {
        let nested = Schema(fields: { var f = SchemaFields(); f.enumValues = [[1], ["a": 2.0]]; return f }())
        #expect(SchemaValidator.validate([1.0], against: nested).isEmpty)
        #expect(SchemaValidator.validate(["a": 2], against: nested).isEmpty)
        #expect(SchemaValidator.validate([true], against: nested).map(\.description) == ["value must be one of [1], {\"a\":2}; got [true]"])
        let zero = Schema(fields: { var f = SchemaFields(); f.constValue = 0; return f }())
        #expect(SchemaValidator.validate(-0.0, against: zero).isEmpty)
        #expect(SchemaValidator.validate(false, against: zero).map(\.description) == ["value must be 0; got false"])
        #expect(SchemaValidator.validate(nil, against: Schema(type: .integer, enumValues: [1])).map(\.description) == [
            "value expects integer, got null"
        ])
    }
}
