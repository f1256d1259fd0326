import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

@Suite struct NotesListSkillTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z

    @Test func listsNotesOldestFirstWithEveryFieldWhenAsked() async throws {
        try await withHarness(clock: SteppingClock(from: Self.start, by: 60), ids: .sequential()) { harness in
            _ = try await harness.run("notes.create", ["title": "first", "body": "b1", "tags": ["work"]])
            _ = try await harness.run("notes.create", ["title": "second"])
            let output = try await harness.run("notes.list", ["order": "oldest"])
            #expect(
                output
                    == [
                        "items": [
                            [
                                "id": "00000000-0000-0000-0000-000000000001", "title": "first", "body": "b1",
                                "tags": ["work"], "created": "2026-05-28T20:26:40Z",
                            ],
                            [
                                "id": "00000000-0000-0000-0000-000000000002", "title": "second", "body": "",
                                "tags": [], "created": "2026-05-28T20:27:40Z",
                            ],
                        ],
                        "count": 2,
                    ])
        }
    }

    @Test func filtersByTagAndLimits() async throws {
        try await withHarness { harness in
            for n in 1...5 {
                _ = try await harness.run("notes.create", ["title": .string("n\(n)"), "tags": n.isMultiple(of: 2) ? ["even"] : []])
            }
            let even = try await harness.run("notes.list", ["tag": "even"])
            #expect(even["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["n4", "n2"])
            #expect(even["count"] == 2)

            // The default is the newest: limit 3 is the last three, newest first.
            let limited = try await harness.run("notes.list", ["limit": 3])
            #expect(limited["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["n5", "n4", "n3"])
            #expect(limited["count"] == 3)
            let oldest = try await harness.run("notes.list", ["limit": 3, "order": "oldest"])
            #expect(oldest["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["n1", "n2", "n3"])
            let taggedOldest = try await harness.run("notes.list", ["tag": "even", "limit": 1, "order": "oldest"])
            #expect(taggedOldest["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["n2"])
        }
    }

    @Test func emptyStoreGivesAnEmptyList() async throws {
        try await withHarness { harness in
            let output = try await harness.run("notes.list", [:])
            #expect(output == ["items": [], "count": 0])
        }
    }

    @Test func limitIsBoundedByTheSchema() async throws {
        try await withHarness { harness in
            let schema = try harness.skill("notes.list").descriptor.parameters
            #expect(!SchemaValidator.validate(["limit": 0], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["limit": 1001], against: schema).isEmpty)
            #expect(!SchemaValidator.validate(["limit": 2.5], against: schema).isEmpty)
            #expect(SchemaValidator.validate(["limit": 1000, "tag": "x"], against: schema).isEmpty)
        }
    }
}
