import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct DataFilterSkillTests {
    static let files: Value = [
        ["path": "a.pdf", "size": 2048, "modified": "2026-11-01T09:00:00Z", "tags": ["work", "tax"]],
        ["path": "b.txt", "size": 12, "modified": "2026-10-01T09:00:00Z", "tags": []],
        ["path": "C.PDF", "size": 1000.0, "modified": "2026-11-20T09:00:00Z", "owner": ["name": "Anna"]],
        ["path": "d.jpg", "size": "big", "owner": ["name": nil]],
        ["path": "e.md", "size": nil, "owner": "nobody"],
    ]

    func paths(_ output: Value) -> [String] {
        output["items"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
    }

    func filter(_ harness: Harness, _ predicates: Value, match: String? = nil) async throws -> [String] {
        var parameters: ValueObject = ["items": Self.files, "where": predicates]
        if let match { parameters["match"] = .string(match) }
        let output = try await harness.run("data.filter", .object(parameters))
        #expect(output["count"]?.intValue == output["items"]?.arrayValue?.count)
        return paths(output)
    }

    @Test func comparesNumbersByValueAndSkipsOtherTypes() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await filter(harness, [["field": "size", "op": ">", "value": 1000]]) == ["a.pdf"])
            #expect(try await filter(harness, [["field": "size", "op": ">=", "value": 1000]]) == ["a.pdf", "C.PDF"])
            #expect(try await filter(harness, [["field": "size", "op": "==", "value": 1000]]) == ["C.PDF"])  // 1000.0
            #expect(try await filter(harness, [["field": "size", "op": "<", "value": 1000.5]]) == ["b.txt", "C.PDF"])
            #expect(try await filter(harness, [["field": "size", "op": "<=", "value": 12]]) == ["b.txt"])
            // A text is not compared with a number, and != is the negation of ==.
            #expect(try await filter(harness, [["field": "size", "op": "!=", "value": 12]]) == ["a.pdf", "C.PDF", "d.jpg", "e.md"])
        }
    }

    @Test func comparesTextsAndIsoDates() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await filter(harness, [["field": "modified", "op": ">", "value": "2026-11-01"]]) == ["a.pdf", "C.PDF"])
            #expect(try await filter(harness, [["field": "path", "op": "<", "value": "b"]]) == ["a.pdf", "C.PDF"])  // C < b
            #expect(
                try await filter(harness, [["field": "path", "op": "<", "value": "b", "ignore_case": true]]) == ["a.pdf"])
        }
    }

    @Test func textOperatorsWithAndWithoutCase() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await filter(harness, [["field": "path", "op": "ends_with", "value": ".pdf"]]) == ["a.pdf"])
            #expect(
                try await filter(harness, [["field": "path", "op": "ends_with", "value": ".pdf", "ignore_case": true]])
                    == ["a.pdf", "C.PDF"])
            #expect(try await filter(harness, [["field": "path", "op": "starts_with", "value": "d"]]) == ["d.jpg"])
            #expect(try await filter(harness, [["field": "path", "op": "contains", "value": "."]]).count == 5)
            #expect(try await filter(harness, [["field": "path", "op": "==", "value": "c.pdf", "ignore_case": true]]) == ["C.PDF"])
            // contains on a list looks for an equal element
            #expect(try await filter(harness, [["field": "tags", "op": "contains", "value": "tax"]]) == ["a.pdf"])
            #expect(
                try await filter(harness, [["field": "tags", "op": "contains", "value": "TAX", "ignore_case": true]]) == ["a.pdf"])
        }
    }

    @Test func missingFieldsNullsAndNestedPaths() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await filter(harness, [["field": "owner.name", "op": "==", "value": "Anna"]]) == ["C.PDF"])
            #expect(try await filter(harness, [["field": "owner.name", "op": "exists"]]) == ["C.PDF"])
            #expect(
                try await filter(harness, [["field": "owner.name", "op": "exists", "value": false]])
                    == ["a.pdf", "b.txt", "d.jpg", "e.md"])
            // null matches a missing field or a null one
            #expect(try await filter(harness, [["field": "size", "op": "==", "value": nil]]) == ["e.md"])
            #expect(try await filter(harness, [["field": "modified", "op": "==", "value": nil]]) == ["d.jpg", "e.md"])
            // A missing field never satisfies an ordering or text test
            #expect(try await filter(harness, [["field": "nope", "op": "<", "value": 1]]) == [])
            #expect(try await filter(harness, [["field": "nope", "op": "contains", "value": "x"]]) == [])
            // a path through a text finds nothing
            #expect(try await filter(harness, [["field": "owner.name.first", "op": "exists"]]) == [])
        }
    }

    @Test func typeMismatchesNeverMatchAndNeverFail() async throws {
        try await withHarness { (harness) async throws in
            for op in ["==", "<", "<=", ">", ">=", "contains", "starts_with", "ends_with"] {
                for value: Value in [["x": 1], [1, 2], true, 3] {
                    let kept = try await filter(harness, [["field": "path", "op": .string(op), "value": value]])
                    #expect(kept.isEmpty, "\(op) \(value)")
                }
            }
            #expect(try await filter(harness, [["field": "size", "op": ">", "value": .double(.nan)]]) == [])
            #expect(try await filter(harness, [["field": "tags", "op": "==", "value": []]]) == ["b.txt"])
        }
    }

    @Test func predicatesCombineWithAllOrAny() async throws {
        try await withHarness { (harness) async throws in
            let predicates: Value = [
                ["field": "path", "op": "ends_with", "value": ".pdf", "ignore_case": true],
                ["field": "size", "op": ">", "value": 1500],
            ]
            #expect(try await filter(harness, predicates) == ["a.pdf"])
            #expect(try await filter(harness, predicates, match: "any") == ["a.pdf", "C.PDF"])
        }
    }

    @Test func opDefaultsToEqualsAndASinglePredicateNeedsNoList() async throws {
        try await withHarness { (harness) async throws in
            #expect(try await filter(harness, [["field": "path", "value": "b.txt"]]) == ["b.txt"])
            // The engine's coercion wraps a single predicate in a list; a direct caller may pass it as is.
            let skill = try harness.skill("data.filter")
            let schema = try #require(skill.descriptor.parameters.property("where"))
            let single: Value = ["field": "path", "op": "EXISTS"]
            let coerced = Coercion(dates: DateParser(now: Date(), timeZone: .current)).coerce(single, to: schema)
            #expect(coerced == [["field": "path", "op": "exists"]])
            let direct = try await skill.run(["items": Self.files, "where": ["field": "size", "op": ">", "value": 1000]], context: harness.context)
            #expect(paths(direct) == ["a.pdf"])
        }
    }

    @Test func malformedPredicatesAreClearErrors() async throws {
        try await withHarness { (harness) async throws in
            let skill = try harness.skill("data.filter")
            let cases: [(Value, String)] = [
                ([["field": "size", "op": ">"]], "where[0]: > needs a value to compare size with"),
                ([["field": "size", "op": "~", "value": 1]], "where[0].op '~' is not an operator; use one of == != < <= > >= contains starts_with ends_with exists"),
                ([["op": "==", "value": 1]], "where[0] needs a field (a text such as size or owner.login)"),
                ([["field": "a..b", "value": 1]], "where[0].field 'a..b' is not a field path; write a field name, or names joined by dots for nested fields (owner.login)"),
                ([["field": "size", "op": "exists", "value": "yes"]], "where[0]: exists takes value true or false, got string"),
                ([["field": "size", "value": 1, "operator": ">"]], "where[0] has unknown key 'operator'; a predicate has field, op, value and ignore_case"),
                ([1], "where[0] must be a predicate like { field: size, op: '>', value: 1000 }, got integer"),
                ([], "data.filter needs at least one predicate in where, like { field: size, op: '>', value: 1000 }"),
            ]
            for (predicates, message) in cases {
                await #expect(throws: SkillError(message)) {
                    _ = try await skill.run(["items": Self.files, "where": predicates], context: harness.context)
                }
            }
            // The schema catches most of these before a run.
            let schema = skill.descriptor.parameters
            #expect(!SchemaValidator.validate(["items": [], "where": [["field": "a", "op": "~"]]], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["items": [], "where": [["field": "a", "operator": "=="]]], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["items": [], "where": [["field": "a."]]], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["items": [1], "where": [["field": "a"]]], against: schema).isEmpty)
        }
    }

    @Test func keepsTheOriginalOrderAndObjectsUnchanged() async throws {
        try await withHarness { (harness) async throws in
            let output = try await harness.run(
                "data.filter", ["items": Self.files, "where": [["field": "path", "op": "contains", "value": "."]]])
            #expect(output["items"] == Self.files)
            #expect(output["count"] == 5)
        }
    }
}
