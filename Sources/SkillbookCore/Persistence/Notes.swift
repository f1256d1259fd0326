public import Foundation

/// A note as stored: its id is a UUID string and `created` is whole seconds in UTC.
public struct Note: Sendable, Hashable {
    public var id: String
    public var title: String
    public var body: String
    public var tags: [String]
    public var created: Date

    public init(id: String, title: String, body: String = "", tags: [String] = [], created: Date) {
        self.id = id
        self.title = title
        self.body = body
        self.tags = tags
        self.created = created
    }

    /// `created` as stored and shown: ISO 8601 in UTC, `2026-05-01T09:00:00Z`.
    public var createdText: String { DateParser.formatUTC(created) }

    /// `{ id, title, body, tags, created }`.
    public var value: Value {
        .object(
            ValueObject([
                ("id", .string(id)),
                ("title", .string(title)),
                ("body", .string(body)),
                ("tags", .array(tags.map(Value.string))),
                ("created", .string(createdText)),
            ]))
    }
}

/// What is needed to create a note: everything but its id and creation time.
public struct NoteDraft: Sendable, Hashable {
    public var title: String
    public var body: String
    public var tags: [String]

    public init(title: String, body: String = "", tags: [String] = []) {
        self.title = title
        self.body = body
        self.tags = tags
    }
}

/// A note as it was when it was deleted, with its place in the list so that it can be put back.
public struct DeletedNote: Sendable, Hashable {
    public var note: Note
    /// The note's SQLite rowid, which orders notes created in the same second. It is a sort key,
    /// not an index: there are gaps.
    public var position: Int

    public init(note: Note, position: Int) {
        self.note = note
        self.position = position
    }
}

/// Where notes are kept (`notes.*` skills). The SQLite store of the state directory is one
/// conformer (SkillbookSQLite's `NotesStore`). Notes list oldest first (ties in insertion order).
/// A conformer must be safe to use from concurrent tasks; its errors' messages name the store and
/// what to do.
public protocol NotesStoring: Sendable {
    /// Writes a new note with a fresh id, created now (to the second).
    func create(title: String, body: String, tags: [String]) async throws -> Note
    /// Writes one note per draft, in order, atomically: every note or none. All share one
    /// creation time, so they list in the order of `drafts`.
    func create(_ drafts: [NoteDraft]) async throws -> [Note]
    /// Notes oldest first, only those tagged `tag` when given, at most `limit`.
    func list(tag: String?, limit: Int) async throws -> [Note]
    /// With `newestFirst`, the newest `limit` notes (only those tagged `tag` when given), newest
    /// first: the exact reverse of the end of `list(tag:limit:)`'s order. Without it, `list(tag:limit:)`.
    /// The default reads every note; a conformer should ask its store for the newest directly.
    func list(tag: String?, limit: Int, newestFirst: Bool) async throws -> [Note]
    /// The note with `id`, if there is one.
    func get(id: String) async throws -> Note?
    /// Deletes the note with `id`; `false` when there was none.
    @discardableResult func delete(id: String) async throws -> Bool
    /// Deletes the notes with these ids atomically and returns them as they were, oldest first.
    /// Ids without a note are skipped; an id given twice counts once.
    func delete(ids: [String]) async throws -> [DeletedNote]
    /// Puts back a note exactly as it was; restoring one already present unchanged does nothing,
    /// a different note with the same id is an error.
    func restore(_ note: Note) async throws
    /// Puts back deleted notes exactly as they were (in their old places where free), all or none.
    func restore(_ notes: [DeletedNote]) async throws
}

extension NotesStoring {
    public func list(tag: String?, limit: Int, newestFirst: Bool) async throws -> [Note] {
        guard newestFirst else { return try await list(tag: tag, limit: limit) }
        return Array(try await list(tag: tag, limit: Int.max).suffix(max(0, limit)).reversed())
    }
}
