import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct DataSortSkillTests {
    func sorted(_ harness: Harness, _ items: Value, by: String? = nil, order: String? = nil) async throws -> Value {
        var parameters: ValueObject = ["items": items]
        if let by { parameters["by"] = .string(by) }
        if let order { parameters["order"] = .string(order) }
        return try await harness.run("data.sort", .object(parameters))["items"] ?? .null
    }

    @Test func sortsObjectsByAFieldAscendingAndDescending() async throws {
        try await withHarness { (harness) async throws in
            let items: Value = [["n": "b", "size": 3], ["n": "a", "size": 1], ["n": "c", "size": 2.5]]
            #expect(try await sorted(harness, items, by: "size") == [["n": "a", "size": 1], ["n": "c", "size": 2.5], ["n": "b", "size": 3]])
            #expect(try await sorted(harness, items, by: "size", order: "desc") == [["n": "b", "size": 3], ["n": "c", "size": 2.5], ["n": "a", "size": 1]])
            #expect(try await sorted(harness, items, by: "n") == [["n": "a", "size": 1], ["n": "b", "size": 3], ["n": "c", "size": 2.5]])
        }
    }

    @Test func isStableInBothOrders() async throws {
        try await withHarness { (harness) async throws in
            let items: Value = .array((0..<40).map { ["k": .int($0 % 3), "i": .int($0)] })
            for order in ["asc", "desc"] {
                let result = try #require(try await sorted(harness, items, by: "k", order: order).arrayValue)
                for (a, b) in zip(result, result.dropFirst()) where a["k"] == b["k"] {
                    #expect(a["i"]!.intValue! < b["i"]!.intValue!, "\(order)")
                }
                let keys = result.compactMap { $0["k"]?.intValue }
                #expect(keys == (order == "asc" ? keys.sorted() : keys.sorted(by: >)))
            }
        }
    }

    @Test func mixedTypesOrderNullBoolNumberString() async throws {
        try await withHarness { (harness) async throws in
            let items: Value = [
                ["v": "b"], ["v": 2], ["v": true], ["v": nil], ["v": "B"], ["v": false], [:], ["v": 1.5], ["v": ["x"]],
                ["v": ["k": 1]], ["v": -3],
            ]
            let ascending = try await sorted(harness, items, by: "v")
            // missing and null keep their order; capitals sort before small letters
            #expect(
                ascending
                    == [
                        ["v": nil], [:], ["v": false], ["v": true], ["v": -3], ["v": 1.5], ["v": 2], ["v": "B"], ["v": "b"],
                        ["v": ["x"]], ["v": ["k": 1]],
                    ])
            let descending = try await sorted(harness, items, by: "v", order: "desc")
            #expect(
                descending
                    == [
                        ["v": ["k": 1]], ["v": ["x"]], ["v": "b"], ["v": "B"], ["v": 2], ["v": 1.5], ["v": -3], ["v": true],
                        ["v": false], ["v": nil], [:],
                    ])
        }
    }

    @Test func nestedPathsAndPlainValues() async throws {
        try await withHarness { (harness) async throws in
            let items: Value = [["o": ["d": 2]], ["o": "flat"], ["o": ["d": 1]]]
            #expect(try await sorted(harness, items, by: "o.d") == [["o": "flat"], ["o": ["d": 1]], ["o": ["d": 2]]])
            #expect(try await sorted(harness, ["pear", "apple", 3, nil]) == [nil, 3, "apple", "pear"])
            #expect(try await sorted(harness, []) == [])
        }
    }

    @Test func numbersCompareByValueAcrossIntegersAndDecimals() async throws {
        try await withHarness { (harness) async throws in
            let items: Value = [9_007_199_254_740_993, 9_007_199_254_740_992, 2.0, 2, 1.9999, .double(.nan)]
            let result = try #require(try await sorted(harness, items).arrayValue)
            #expect(result.first?.doubleValue?.isNaN == true)  // NaN first, below every number
            #expect(Array(result.dropFirst()) == [1.9999, 2.0, 2, 9_007_199_254_740_992, 9_007_199_254_740_993])
            #expect(result[2] == .double(2.0) && result[3] == .int(2))  // equal numbers keep their order
        }
    }

    @Test func aBadPathIsAClearError() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("data.sort")
            await #expect(
                throws: SkillError(
                    "by 'a..b' is not a field path; write a field name, or names joined by dots for nested fields (owner.login)")
            ) {
                _ = try await skill.run(["items": [], "by": "a..b"], context: harness.context)
            }
            #expect(!SchemaValidator.validate(["items": [], "order": "up"], against: skill.descriptor.parameters).isEmpty)
        }
    }
}
