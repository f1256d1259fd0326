import Foundation
public import SkillbookCore
public import SkillbookSQL

/// Notes kept in the PostgreSQL state, with the semantics of the SQLite `NotesStore`: listed
/// oldest first, ties in insertion order (`position`, which plays SQLite's rowid), restored in
/// their old place when it is free.
public final class PostgresNotesStore: NotesStoring {
    public let database: PostgresDatabase
    private let clock: any WallClock
    private let ids: IDGenerator

    public init(database: PostgresDatabase, clock: any WallClock = SystemClock(), ids: IDGenerator = .live) {
        self.database = database
        self.clock = clock
        self.ids = ids
    }

    private static let columns = "id, title, body, tags, created"
    private static let order = #"ORDER BY created COLLATE "C", position"#

    private func now() -> Date { Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down)) }

    public func create(title: String, body: String, tags: [String]) throws -> Note {
        let note = Note(id: ids.next(), title: title, body: body, tags: tags, created: now())
        try database.transaction(doing: "creating a note") { try insert(note, in: $0) }
        return note
    }

    public func create(_ drafts: [NoteDraft]) throws -> [Note] {
        guard !drafts.isEmpty else { return [] }
        let created = now()
        return try database.transaction(doing: "creating \(drafts.count) notes") { transaction in
            try drafts.map { draft in
                let note = Note(id: ids.next(), title: draft.title, body: draft.body, tags: draft.tags, created: created)
                try insert(note, in: transaction)
                return note
            }
        }
    }

    public func list(tag: String?, limit: Int) throws -> [Note] {
        try database.query(
            """
            SELECT \(Self.columns) FROM notes
            WHERE $1::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(notes.tags::json) AS t(tag) WHERE t.tag = $1)
            \(Self.order) LIMIT $2
            """, [SQLValue(tag), .integer(max(0, limit))], doing: "listing notes"
        ).map(note)
    }

    public func get(id: String) throws -> Note? {
        try database.query("SELECT \(Self.columns) FROM notes WHERE id = $1", [.text(id)], doing: "reading a note").first.map(note)
    }

    @discardableResult
    public func delete(id: String) throws -> Bool {
        try database.run("DELETE FROM notes WHERE id = $1", [.text(id)], doing: "deleting a note") > 0
    }

    public func delete(ids: [String]) throws -> [DeletedNote] {
        guard !ids.isEmpty else { return [] }
        let list = SQLValue.text(JSONText.encode(.array(ids.map(Value.string))))
        return try database.transaction(doing: "deleting notes") { transaction in
            let rows = try transaction.query(
                """
                DELETE FROM notes WHERE id IN (SELECT json_array_elements_text($1::json))
                RETURNING position, \(Self.columns)
                """, [list])
            let deleted = try rows.map { row in
                guard let position = row.int("position") else { throw malformed(row.string("id")) }
                return DeletedNote(note: try note(row), position: position)
            }
            return deleted.sorted { ($0.note.createdText, $0.position) < ($1.note.createdText, $1.position) }
        }
    }

    public func restore(_ note: Note) throws {
        try database.transaction(doing: "restoring a note") { try restoreOne(note, position: nil, in: $0) }
    }

    public func restore(_ notes: [DeletedNote]) throws {
        guard !notes.isEmpty else { return }
        try database.transaction(doing: "restoring notes") { transaction in
            for deleted in notes { try restoreOne(deleted.note, position: deleted.position, in: transaction) }
        }
    }

    private func restoreOne(_ note: Note, position: Int?, in transaction: PostgresDatabase.Transaction) throws {
        if let row = try transaction.query("SELECT \(Self.columns) FROM notes WHERE id = $1", [.text(note.id)]).first {
            let existing = try self.note(row)
            guard existing.title == note.title, existing.body == note.body, existing.tags == note.tags,
                existing.createdText == note.createdText
            else {
                throw PostgresError(
                    .conflict, message: "cannot restore note \(note.id) in state database \(database.location): a different note with that id exists")
            }
            return
        }
        var place = position
        if let position, try !transaction.query("SELECT 1 FROM notes WHERE position = $1", [.integer(position)]).isEmpty {
            place = nil  // taken since the delete
        }
        try insert(note, position: place, in: transaction)
    }

    private func insert(_ note: Note, position: Int? = nil, in transaction: PostgresDatabase.Transaction) throws {
        let tags = SQLValue.text(JSONText.encode(.array(note.tags.map(Value.string))))
        let values: [SQLValue] = [.text(note.id), .text(note.title), .text(note.body), tags, .text(note.createdText)]
        if let position {
            try transaction.run(
                "INSERT INTO notes (position, \(Self.columns)) VALUES ($6, $1, $2, $3, $4, $5)", values + [.integer(position)])
        } else {
            try transaction.run("INSERT INTO notes (\(Self.columns)) VALUES ($1, $2, $3, $4, $5)", values)
        }
    }

    private func note(_ row: Row) throws -> Note {
        guard let id = row.string("id"), let title = row.string("title"), let body = row.string("body"),
            let tagsText = row.string("tags"), let createdText = row.string("created"),
            let tags = try? JSONDecoder().decode([String].self, from: Data(tagsText.utf8)),
            let created = try? Date(createdText, strategy: .iso8601)
        else { throw malformed(row.string("id")) }
        return Note(id: id, title: title, body: body, tags: tags, created: created)
    }

    private func malformed(_ id: String?) -> PostgresError {
        PostgresError(
            .malformedRow,
            message: "state database \(database.location) has a malformed note\(id.map { " \($0)" } ?? "") "
                + "(a column is missing or of the wrong type); it was probably edited by hand")
    }
}

/// The host uses it through `OffloadedNotes`, on the state's own threads.
extension PostgresNotesStore: BlockingNotesStore {}
