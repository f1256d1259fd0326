import Foundation
import Testing

/// No code outside a backend's target names its concrete types: the host and the front ends reach
/// a backend through Core's capability protocols (`StateBackend`, `RunJournal`, `RunQueue`,
/// `ResourceLocking`, `AdoptingFireLedger`, `StateFailure`…), so neither downcasts to a backend's
/// class nor constructs one; each backend target offers one entry point (`SQLiteState`,
/// `PostgresState`) that the host calls.
///
/// Exempt, because they must construct a backend: the tests (each backend's own, and the suites
/// that run against both), `SkillbookTesting` (it opens the SQLite stores of a skill test's state
/// directory) and `skillbook-bench` (it measures each backend directly).
enum BackendTypeRules {
    /// Each backend target with the types only it may name.
    static let concreteTypes: [String: [String]] = [
        "SkillbookSQLite": [
            "SQLiteJournal", "StateDatabase", "Database", "Statement", "SQLiteResourceLocks", "SQLiteFireLedger", "NotesStore",
            "RemindersStore", "StoreError",
        ],
        "SkillbookPostgres": [
            "PostgresJournal", "PostgresDatabase", "PostgresConnection", "PostgresListener", "PostgresResourceLocks",
            "PostgresFireLedger", "PostgresNotesStore", "PostgresRemindersStore", "PostgresURL", "PostgresError", "PostgresSchema",
        ],
    ]
    static let exempt: Set<String> = ["SkillbookTesting", "skillbook-bench"]

    /// Where `text`, a file of `module`, names another backend's concrete type (comments aside).
    static func violations(module: String, file: String, text: String) -> [ImportRules.Violation] {
        guard !exempt.contains(module) else { return [] }
        let forbidden = concreteTypes.filter { $0.key != module }.flatMap { backend, types in types.map { ($0, backend) } }
        var found: [ImportRules.Violation] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = codePart(of: String(line))
            for (type, backend) in forbidden where names(code, type) {
                found.append(
                    ImportRules.Violation(
                        file: file, line: index + 1,
                        message: "\(module) names \(type) of \(backend): reach it through Core's capability protocols"))
            }
        }
        return found
    }

    /// The line without its `//` comment.
    static func codePart(of line: String) -> String {
        guard let range = line.range(of: "//") else { return line }
        return String(line[..<range.lowerBound])
    }

    /// Whether `code` holds `word` as a whole identifier.
    static func names(_ code: String, _ word: String) -> Bool {
        var searchFrom = code.startIndex
        while let range = code.range(of: word, range: searchFrom..<code.endIndex) {
            let before = range.lowerBound == code.startIndex ? nil : code[code.index(before: range.lowerBound)]
            let after = range.upperBound == code.endIndex ? nil : code[range.upperBound]
            if !isIdentifier(before) && !isIdentifier(after) { return true }
            searchFrom = range.upperBound
        }
        return false
    }

    private static func isIdentifier(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}

@Suite struct BackendTypeTests {
    @Test func noCodeOutsideABackendNamesItsConcreteTypes() throws {
        let violations = try ImportDirectionTests.sourceFiles().flatMap {
            BackendTypeRules.violations(module: $0.module, file: $0.file, text: $0.text)
        }
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func aDowncastToABackendClassIsNamedWithItsFileAndLine() {
        let text = "import SkillbookCore\n// PostgresJournal in a comment is fine\nguard let j = journal as? PostgresJournal else { return }\n"
        #expect(
            BackendTypeRules.violations(module: "SkillbookHost", file: "Sources/SkillbookHost/X.swift", text: text).map(\.description) == [
                "Sources/SkillbookHost/X.swift:3: SkillbookHost names PostgresJournal of SkillbookPostgres: reach it through Core's capability protocols"
            ])
    }

    @Test func aBackendMayNameItsOwnTypesButNotTheOthers() {
        #expect(BackendTypeRules.violations(module: "SkillbookSQLite", file: "f", text: "let j = try SQLiteJournal(stateDirectory: d)").isEmpty)
        #expect(BackendTypeRules.violations(module: "SkillbookPostgres", file: "f", text: "let d = try StateDatabase.open(x)").count == 1)
        #expect(BackendTypeRules.violations(module: "skillbook-bench", file: "f", text: "let d = try PostgresDatabase(url)").isEmpty)
    }

    @Test func onlyWholeIdentifiersCount() {
        #expect(BackendTypeRules.names("x is Database", "Database"))
        #expect(!BackendTypeRules.names("x is PostgresDatabase", "Database"))
        #expect(!BackendTypeRules.names("let databaseFile = 1", "Database"))
        #expect(!BackendTypeRules.names("StatementKind", "Statement"))
    }
}
