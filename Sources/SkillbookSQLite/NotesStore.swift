public import Foundation
public import SkillbookCore
public import SkillbookSQL

/// Notes kept in `<state directory>/skillbook.sqlite`, listed oldest first.
///
/// Safe to use from concurrent tasks: it shares one `Database` connection, which serializes calls.
public final class NotesStore: NotesStoring {
    public let database: Database
    private let clock: any WallClock
    private let ids: IDGenerator

    public init(stateDirectory: URL, clock: any WallClock = SystemClock(), ids: IDGenerator = .live) throws(StoreError) {
        self.database = try StateDatabase.open(stateDirectory: stateDirectory)
        self.clock = clock
        self.ids = ids
    }

    private static let columns = "id, title, body, tags, created"

    /// Writes a new note with a fresh id, created now (to the second).
    public func create(title: String, body: String = "", tags: [String] = []) throws(StoreError) -> Note {
        let now = clock.now().timeIntervalSince1970.rounded(.down)
        let note = Note(id: ids.next(), title: title, body: body, tags: tags, created: Date(timeIntervalSince1970: now))
        try insert(note)
        return note
    }

    /// Writes one note per draft, in order, in one transaction: either every note is written or none
    /// is. Each gets a fresh id; all share one creation time (now, to the second), so they list in
    /// the order of `drafts`.
    public func create(_ drafts: [NoteDraft]) throws(StoreError) -> [Note] {
        guard !drafts.isEmpty else { return [] }
        let now = Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down))
        return try transaction { () throws(StoreError) in
            var notes: [Note] = []
            notes.reserveCapacity(drafts.count)
            for draft in drafts {
                let note = Note(id: ids.next(), title: draft.title, body: draft.body, tags: draft.tags, created: now)
                try insert(note)
                notes.append(note)
            }
            return notes
        }
    }

    /// Notes oldest first (ties in insertion order), only those tagged `tag` when given, at most `limit`.
    public func list(tag: String? = nil, limit: Int = 100) throws(StoreError) -> [Note] {
        let rows = try database.query(
            """
            SELECT \(Self.columns) FROM notes
            WHERE ?1 IS NULL OR EXISTS (SELECT 1 FROM json_each(notes.tags) WHERE json_each.value = ?1)
            ORDER BY created, rowid
            LIMIT ?2
            """,
            [SQLValue(tag), .integer(max(0, limit))])
        var notes: [Note] = []
        for row in rows { notes.append(try note(from: row)) }
        return notes
    }

    /// The newest `limit` notes, newest first, with `newestFirst` (see `NotesStoring`).
    public func list(tag: String?, limit: Int, newestFirst: Bool) throws(StoreError) -> [Note] {
        guard newestFirst else { return try list(tag: tag, limit: limit) }
        let rows = try database.query(
            """
            SELECT \(Self.columns) FROM notes
            WHERE ?1 IS NULL OR EXISTS (SELECT 1 FROM json_each(notes.tags) WHERE json_each.value = ?1)
            ORDER BY created DESC, rowid DESC
            LIMIT ?2
            """,
            [SQLValue(tag), .integer(max(0, limit))])
        var notes: [Note] = []
        for row in rows { notes.append(try note(from: row)) }
        return notes
    }

    /// The note with `id`, if there is one.
    public func get(id: String) throws(StoreError) -> Note? {
        guard let row = try database.query("SELECT \(Self.columns) FROM notes WHERE id = ?", [.text(id)]).first
        else { return nil }
        return try note(from: row)
    }

    /// Deletes the note with `id`; `false` when there was none.
    @discardableResult
    public func delete(id: String) throws(StoreError) -> Bool {
        try database.run("DELETE FROM notes WHERE id = ?", [.text(id)]) > 0
    }

    /// Deletes the notes with these ids in one transaction and returns them as they were, oldest
    /// first (list order). Ids without a note are skipped, and an id given twice counts once.
    public func delete(ids: [String]) throws(StoreError) -> [DeletedNote] {
        guard !ids.isEmpty else { return [] }
        let idList = SQLValue.text(JSONText.encode(.array(ids.map(Value.string))))
        return try transaction { () throws(StoreError) in
            let rows = try database.query(
                """
                SELECT rowid AS position, \(Self.columns) FROM notes
                WHERE id IN (SELECT value FROM json_each(?1))
                ORDER BY created, rowid
                """,
                [idList])
            var deleted: [DeletedNote] = []
            for row in rows {
                guard let position = row.int("position") else { throw malformed(row.string("id")) }
                deleted.append(DeletedNote(note: try note(from: row), position: position))
            }
            try database.run("DELETE FROM notes WHERE id IN (SELECT value FROM json_each(?1))", [idList])
            return deleted
        }
    }

    /// Puts back a note exactly as it was (same id and `created`, so it lists in its old place
    /// among notes of other seconds; among notes of the same second it lists last).
    ///
    /// Safe to retry: restoring a note that is already present unchanged does nothing. A different
    /// note with the same id is a `.conflict`.
    public func restore(_ note: Note) throws(StoreError) {
        try transaction { () throws(StoreError) in try restoreOne(note, position: nil) }
    }

    /// Puts back deleted notes exactly as they were, in one transaction (all or none): same id,
    /// fields and `created`, and, when their old position is still free, the same place in the list
    /// even among notes created in the same second. A position taken since (by a note created after
    /// the delete) is not reused: that note lists at the end of its second instead.
    ///
    /// Safe to retry: a note already present unchanged is left alone. A different note with the same
    /// id is a `.conflict`, and then none of them is restored.
    public func restore(_ notes: [DeletedNote]) throws(StoreError) {
        guard !notes.isEmpty else { return }
        try transaction { () throws(StoreError) in
            for deleted in notes { try restoreOne(deleted.note, position: deleted.position) }
        }
    }

    /// Call inside a transaction.
    private func restoreOne(_ note: Note, position: Int?) throws(StoreError) {
        if let existing = try get(id: note.id) {
            guard existing.title == note.title, existing.body == note.body, existing.tags == note.tags,
                existing.createdText == note.createdText
            else {
                throw StoreError(
                    .conflict,
                    message: "cannot restore note \(note.id) in state database \(database.path): "
                        + "a different note with that id exists",
                    path: database.path)
            }
            return
        }
        var rowid = SQLValue(position)
        if let position, try !database.query("SELECT 1 FROM notes WHERE rowid = ?", [.integer(position)]).isEmpty {
            rowid = .null  // taken since the delete: let SQLite choose
        }
        try insert(note, rowid: rowid)
    }

    /// `rowid` `.null` lets SQLite choose one after every existing note.
    private func insert(_ note: Note, rowid: SQLValue = .null) throws(StoreError) {
        try database.run(
            "INSERT INTO notes (rowid, \(Self.columns)) VALUES (?, ?, ?, ?, ?, ?)",
            [
                rowid, .text(note.id), .text(note.title), .text(note.body),
                .text(JSONText.encode(.array(note.tags.map(Value.string)))), .text(note.createdText),
            ])
    }

    /// Runs `body` in one database transaction, rolled back when it throws.
    private func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try database.transaction { try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.other, message: "\(error)", path: database.path)
        }
    }

    private func note(from row: Row) throws(StoreError) -> Note {
        guard let id = row.string("id"), let title = row.string("title"), let body = row.string("body"),
            let tagsText = row.string("tags"), let createdText = row.string("created")
        else { throw malformed(row.string("id")) }
        guard let tags = try? JSONDecoder().decode([String].self, from: Data(tagsText.utf8)),
            let created = try? Date(createdText, strategy: .iso8601)
        else { throw malformed(id) }
        return Note(id: id, title: title, body: body, tags: tags, created: created)
    }

    private func malformed(_ id: String?) -> StoreError {
        StoreError(
            .malformedRow,
            message: "state database \(database.path) has a malformed note\(id.map { " \($0)" } ?? "") "
                + "(a column is missing or of the wrong type); it was probably edited by hand",
            path: database.path)
    }
}

/// The host uses it through `OffloadedNotes`, on the state's own threads.
extension NotesStore: BlockingNotesStore {}
