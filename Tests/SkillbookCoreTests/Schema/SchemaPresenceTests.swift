import SkillbookCore
import Testing

/// Alternatives that only say which properties an object has are read as rules about the names,
/// and the validator says them that way instead of "matches more than one 'oneOf' alternative".
@Suite struct SchemaPresenceTests {
    private let pairs = Schema.object(["a": .string(), "b": .string(), "c": .string()]).with {
        $0.oneOf = [.requiring(["a", "b"]), .requiring(["c"])]
        $0.dependentRequired = [("a", ["b"])]
    }

    @Test func presenceProblemsNameTheProperties() {
        #expect(pairs.presenceProblems(given: ["a", "b"]) == [])
        #expect(pairs.presenceProblems(given: ["c"]) == [])
        // (what the pair asks meets an alternative: said once)
        #expect(pairs.presenceProblems(given: ["a"]) == ["needs 'b' with 'a'"])
        #expect(pairs.presenceProblems(given: ["a", "b", "c"]) == ["takes 'a' with 'b' or 'c', not both"])
        #expect(pairs.presenceProblems(given: []) == ["needs 'a' with 'b' or 'c'"])
    }

    @Test func notAndAnyOfAreReadTheSameWay() {
        let schema = Schema.object(["x": .string(), "y": .string(), "z": .string()]).with {
            $0.not = .requiring(["x", "y"])
            $0.anyOf = [.requiring(["x"]), .requiring(["y"]), .requiring(["z"])]
        }
        #expect(schema.presenceProblems(given: ["x", "y"]) == ["takes 'x' or 'y', not both"])
        #expect(schema.presenceProblems(given: []) == ["needs 'x', 'y' or 'z'"])
        #expect(schema.presenceProblems(given: ["x", "z"]) == [])
    }

    @Test func alternativesThatSayMoreAreLeftToTheValidator() {
        let schema = Schema.object(["x": .string()]).with {
            $0.oneOf = [.requiring(["x"]), Schema.object(["x": .integer()], required: ["x"])]
        }
        #expect(schema.presenceProblems(given: []) == [])
    }

    @Test func theValidatorSaysThemInTheSameWords() {
        let both: Value = ["a": "1", "b": "2", "c": "3"]
        #expect(SchemaValidator.validate(both, against: pairs).map(\.predicate) == ["takes 'a' with 'b' or 'c', not both"])
        let excluded = Schema.object(["x": .string(), "y": .string()]).with { $0.not = .requiring(["x", "y"]) }
        #expect(SchemaValidator.validate(["x": "1", "y": "2"], against: excluded).map(\.predicate) == ["takes 'x' or 'y', not both"])
        #expect(SchemaValidator.validate(["x": "1"], against: excluded).isEmpty)
    }
}
