import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct TextTemplateSkillTests {
    func render(_ template: String, _ values: Value? = nil) async throws -> Value {
        try await withHarness { harness in
            var parameters = ValueObject([("template", .string(template))])
            parameters["values"] = values
            return try await harness.run("text.template", .object(parameters))
        }
    }

    @Test func fillsPlaceholdersWithAndWithoutSpaces() async throws {
        let output = try await render("Hi {{name}}, it is {{  day }} ({{name}}).", ["name": "Anna", "day": "Friday"])
        #expect(output == ["text": "Hi Anna, it is Friday (Anna)."])
    }

    @Test func followsDottedPathsIntoNestedObjectsAndLists() async throws {
        let values: Value = ["person": ["name": "Anna", "address": ["city": "Berlin"]], "items": ["x", "y"]]
        let output = try await render("{{person.name}} lives in {{ person.address.city }}; first {{items.0}}", values)
        #expect(output == ["text": "Anna lives in Berlin; first x"])
    }

    @Test func rendersNonStringValuesAsJSON() async throws {
        let values: Value = ["n": 3, "d": 2.5, "b": true, "list": [1, "a"], "obj": ["k": "v"], "none": nil]
        let output = try await render("{{n}} {{d}} {{b}} {{list}} {{obj}} [{{none}}]", values)
        #expect(output == ["text": #"3 2.5 true [1,"a"] {"k":"v"} []"#])
    }

    @Test func valuesDefaultToEmptyAndPlainTextPassesThrough() async throws {
        #expect(try await render("no placeholders, a lone {{ and } brace") == ["text": "no placeholders, a lone {{ and } brace"])
        #expect(try await render("") == ["text": ""])
    }

    @Test func unknownPlaceholderNamesTheKeysThatExist() async throws {
        await #expect(throws: SkillError("template placeholder '{{nmae}}' has no value; values has: name, day")) {
            try await render("Hi {{ nmae }}", ["name": "Anna", "day": "Friday"])
        }
    }

    @Test func unknownPlaceholderWithNoValues() async throws {
        await #expect(throws: SkillError("template placeholder '{{name}}' has no value; values is empty")) {
            try await render("Hi {{name}}")
        }
    }

    @Test func unknownNestedPlaceholderNamesTheKeysAtThatLevel() async throws {
        await #expect(throws: SkillError("template placeholder '{{person.nmae}}' has no value; values.person has: name")) {
            try await render("{{person.nmae}}", ["person": ["name": "Anna"]])
        }
        await #expect(
            throws: SkillError("template placeholder '{{name.first}}' has no value; values.name is string, not an object")
        ) {
            try await render("{{name.first}}", ["name": "Anna"])
        }
    }

    @Test func emptyPlaceholderIsAnError() async throws {
        await #expect(throws: SkillError.self) { try await render("a {{ }} b") }
    }
}
