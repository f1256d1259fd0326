public import Foundation
public import SkillbookCore

/// The notes store as a SQL backend implements it: `NotesStoring`'s calls, synchronous (see
/// `BlockingJournal`).
public protocol BlockingNotesStore: Sendable {
    func create(title: String, body: String, tags: [String]) throws -> Note
    func create(_ drafts: [NoteDraft]) throws -> [Note]
    func list(tag: String?, limit: Int) throws -> [Note]
    func list(tag: String?, limit: Int, newestFirst: Bool) throws -> [Note]
    func get(id: String) throws -> Note?
    func delete(id: String) throws -> Bool
    func delete(ids: [String]) throws -> [DeletedNote]
    func restore(_ note: Note) throws
    func restore(_ notes: [DeletedNote]) throws
}

extension BlockingNotesStore {
    /// As `NotesStoring`'s: the oldest-first list, reversed.
    public func list(tag: String?, limit: Int, newestFirst: Bool) throws -> [Note] {
        guard newestFirst else { return try list(tag: tag, limit: limit) }
        return Array(try list(tag: tag, limit: Int.max).suffix(max(0, limit)).reversed())
    }
}

/// The reminders store as a SQL backend implements it (see `BlockingJournal`).
public protocol BlockingRemindersStore: Sendable {
    func create(title: String, due: Date?, notes: String) throws -> Reminder
    func get(id: String) throws -> Reminder?
    func list(dueFrom: Date?, dueBefore: Date?, includeDone: Bool, limit: Int) throws -> [Reminder]
    func complete(id: String) throws -> ReminderCompletion?
    func reopen(id: String, completedAt: Date) throws -> Bool
    func delete(id: String) throws -> Bool
    func delete(ids: [String]) throws -> [DeletedReminder]
    func restore(_ reminders: [DeletedReminder]) throws
}

/// A backend's notes store on the backend's own threads (see `OffloadedJournal`).
public struct OffloadedNotes<Base: BlockingNotesStore>: NotesStoring {
    public let base: Base
    public let io: BlockingIO

    public init(_ base: Base, io: BlockingIO) {
        self.base = base
        self.io = io
    }

    public func create(title: String, body: String, tags: [String]) async throws -> Note {
        try await io.run { [base] in try base.create(title: title, body: body, tags: tags) }
    }

    public func create(_ drafts: [NoteDraft]) async throws -> [Note] {
        try await io.run { [base] in try base.create(drafts) }
    }

    public func list(tag: String?, limit: Int) async throws -> [Note] {
        try await io.run { [base] in try base.list(tag: tag, limit: limit) }
    }

    public func list(tag: String?, limit: Int, newestFirst: Bool) async throws -> [Note] {
        try await io.run { [base] in try base.list(tag: tag, limit: limit, newestFirst: newestFirst) }
    }

    public func get(id: String) async throws -> Note? {
        try await io.run { [base] in try base.get(id: id) }
    }

    @discardableResult
    public func delete(id: String) async throws -> Bool {
        try await io.run { [base] in try base.delete(id: id) }
    }

    public func delete(ids: [String]) async throws -> [DeletedNote] {
        try await io.run { [base] in try base.delete(ids: ids) }
    }

    public func restore(_ note: Note) async throws {
        try await io.run { [base] in try base.restore(note) }
    }

    public func restore(_ notes: [DeletedNote]) async throws {
        try await io.run { [base] in try base.restore(notes) }
    }
}

/// A backend's reminders store on the backend's own threads (see `OffloadedJournal`).
public struct OffloadedReminders<Base: BlockingRemindersStore>: RemindersStoring {
    public let base: Base
    public let io: BlockingIO

    public init(_ base: Base, io: BlockingIO) {
        self.base = base
        self.io = io
    }

    public func create(title: String, due: Date?, notes: String) async throws -> Reminder {
        try await io.run { [base] in try base.create(title: title, due: due, notes: notes) }
    }

    public func get(id: String) async throws -> Reminder? {
        try await io.run { [base] in try base.get(id: id) }
    }

    public func list(dueFrom: Date?, dueBefore: Date?, includeDone: Bool, limit: Int) async throws -> [Reminder] {
        try await io.run { [base] in try base.list(dueFrom: dueFrom, dueBefore: dueBefore, includeDone: includeDone, limit: limit) }
    }

    public func complete(id: String) async throws -> ReminderCompletion? {
        try await io.run { [base] in try base.complete(id: id) }
    }

    @discardableResult
    public func reopen(id: String, completedAt: Date) async throws -> Bool {
        try await io.run { [base] in try base.reopen(id: id, completedAt: completedAt) }
    }

    @discardableResult
    public func delete(id: String) async throws -> Bool {
        try await io.run { [base] in try base.delete(id: id) }
    }

    public func delete(ids: [String]) async throws -> [DeletedReminder] {
        try await io.run { [base] in try base.delete(ids: ids) }
    }

    public func restore(_ reminders: [DeletedReminder]) async throws {
        try await io.run { [base] in try base.restore(reminders) }
    }
}
