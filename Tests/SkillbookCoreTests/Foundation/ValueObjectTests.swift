import SkillbookCore
import Testing

/// `ValueObject` keeps insertion order, finds members by key, and compares as a set of members.
@Suite struct ValueObjectTests {
    @Test func membersKeepTheirOrderThroughReplacementAndRemoval() {
        var object: ValueObject = ["a": 1, "b": 2, "c": 3, "d": 4]
        object["b"] = "two"
        #expect(object.keys == ["a", "b", "c", "d"])
        object["a"] = nil
        object["c"] = nil
        object["e"] = 5
        #expect(object.keys == ["b", "d", "e"])
        #expect(object.map(\.value) == ["two", 4, 5])
        #expect(object["d"] == 4 && object["e"] == 5 && object["a"] == nil && object["c"] == nil)
        object["nope"] = nil
        #expect(object.count == 3)
        object["b"] = nil
        object["d"] = nil
        object["e"] = nil
        #expect(object.isEmpty && object.keys.isEmpty)
    }

    @Test func equalityAndHashIgnoreOrder() {
        let one: ValueObject = ["a": 1, "b": ["x": true]]
        let other: ValueObject = ["b": ["x": true], "a": 1]
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(Set([one, other]).count == 1)
        #expect(one != ["a": 1, "b": ["x": false]])
        #expect(one != ["a": 1])
        #expect(one != ["a": 1, "c": ["x": true]])
    }
}
