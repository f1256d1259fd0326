import SkillbookCore
import SkillbookSkills
import SkillbookTesting
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

    /// Where a text's bytes are: the same address before and after means it was not copied.
    static func address(of text: String) -> UInt {
        var text = text
        return text.withUTF8 { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func handedOverValuesHaveTheLargestTextFilledInPlace() async throws {
        try await withHarness { harness in
            let skill = try harness.skill("text.template")
            let made = Recorder<UInt>()
            func text() -> Value {
                // Room to spare, as a text read from a file into whole pages has.
                let text = String(unsafeUninitializedCapacity: 10_000) { buffer in
                    for index in 0..<5_000 { buffer[index] = UInt8(ascii: "x") }
                    return 5_000
                }
                made.append(Self.address(of: text))
                return .string(text)
            }
            let output = try await skill.run(
                handedOver: CallParameters(
                    params(["template": "{{ n }}: {{body}} ({{short}})", "values": ["body": text(), "n": 2, "short": "s"]]),
                    handedOver: true),
                context: harness.context)
            let filled = try #require(output["text"]?.stringValue)
            #expect(filled == "2: " + String(repeating: "x", count: 5_000) + " (s)")
            #expect(Self.address(of: filled) == made.values.first)

            // Not handed over (the engine keeps its copy): the text is copied, and stays as it was.
            let kept = text()
            let copied = try await skill.run(
                handedOver: CallParameters(params(["template": "<{{body}}>", "values": ["body": kept]])), context: harness.context)
            #expect(copied["text"]?.stringValue == "<" + String(repeating: "x", count: 5_000) + ">")
            #expect(Self.address(of: copied["text"]?.stringValue ?? "") != made.values.last)
            #expect(kept == .string(String(repeating: "x", count: 5_000)))
        }
    }

    static func outcome(_ body: () async throws -> Value) async -> Result<Value, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    @Test func handedOverValuesGiveWhatTheValuesGive() async throws {
        let cases: [(String, Value)] = [
            ("Hi {{name}}, it is {{  day }} ({{name}}).", ["name": "Anna", "day": "Friday"]),
            ("{{person.name}} lives in {{ person.address.city }}", ["person": ["name": "Anna", "address": ["city": "Berlin"]]]),
            ("{{n}} {{list}} [{{none}}] {{long}}", ["n": 3, "list": [1, "a"], "none": nil, "long": "a longer text"]),
            ("no placeholders", [:]),
            ("{{missing}}", ["there": "x"]),
        ]
        try await withHarness { harness in
            let skill = try harness.skill("text.template")
            for (template, values) in cases {
                let parameters = params(["template": .string(template), "values": values])
                let plain = await Self.outcome { try await skill.run(parameters, context: harness.context) }
                let handed = await Self.outcome {
                    try await skill.run(handedOver: CallParameters(parameters, handedOver: true), context: harness.context)
                }
                switch (plain, handed) {
                case (.success(let one), .success(let other)): #expect(one == other, "\(template)")
                case (.failure(let one), .failure(let other)): #expect("\(one)" == "\(other)", "\(template)")
                default: Issue.record("\(template): \(plain) and \(handed) differ")
                }
            }
        }
    }
}
