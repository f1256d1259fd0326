public import Foundation

/// A reminder as stored. Times are whole seconds; `completedAt` is set exactly when `done` is.
public struct Reminder: Sendable, Hashable {
    public var id: String
    public var title: String
    /// When it is due; `nil` for a reminder without a time.
    public var due: Date?
    public var notes: String
    public var done: Bool
    public var created: Date
    public var completedAt: Date?

    public init(
        id: String, title: String, due: Date? = nil, notes: String = "", done: Bool = false, created: Date,
        completedAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.due = due
        self.notes = notes
        self.done = done
        self.created = created
        self.completedAt = completedAt
    }

    /// `due` as stored and shown: ISO 8601 in UTC, `2026-05-01T09:00:00Z`.
    public var dueText: String? { due.map(Reminder.text) }
    public var createdText: String { Reminder.text(created) }
    public var completedAtText: String? { completedAt.map(Reminder.text) }

    /// A time as stored and shown: ISO 8601 in UTC to the second.
    static func text(_ date: Date) -> String { DateParser.formatUTC(date) }

    /// `{ id, title, due, notes, done }`, without `due` when it has none.
    public var value: Value {
        var object = ValueObject([("id", .string(id)), ("title", .string(title))])
        if let dueText { object["due"] = .string(dueText) }
        object["notes"] = .string(notes)
        object["done"] = .bool(done)
        return .object(object)
    }
}

/// A reminder as it was when it was deleted, with its place among reminders so that it can be put back.
public struct DeletedReminder: Sendable, Hashable {
    public var reminder: Reminder
    /// The reminder's SQLite rowid, which orders reminders due and created at the same time. A sort
    /// key, not an index: there are gaps.
    public var position: Int

    public init(reminder: Reminder, position: Int) {
        self.reminder = reminder
        self.position = position
    }
}

/// What `RemindersStore.complete` did.
public struct ReminderCompletion: Sendable, Hashable {
    /// The reminder after the call.
    public var reminder: Reminder
    /// It was already done: the call changed nothing.
    public var wasDone: Bool

    public init(reminder: Reminder, wasDone: Bool) {
        self.reminder = reminder
        self.wasDone = wasDone
    }
}

/// Where reminders are kept (`reminders.*` skills). The SQLite store of the state directory is one
/// conformer (SkillbookSQLite's `RemindersStore`). Reminders list by due time (those without one
/// last), then oldest first. Times are kept to the second. A conformer must be safe to use from
/// concurrent tasks; its errors' messages name the store and what to do.
public protocol RemindersStoring: Sendable {
    /// Writes a new reminder with a fresh id, created now.
    func create(title: String, due: Date?, notes: String) async throws -> Reminder
    /// The reminder with `id`, if there is one.
    func get(id: String) async throws -> Reminder?
    /// Due at or after `dueFrom` and before `dueBefore` when given (then only those with a time),
    /// not done unless `includeDone`, at most `limit`.
    func list(dueFrom: Date?, dueBefore: Date?, includeDone: Bool, limit: Int) async throws -> [Reminder]
    /// With `lastFirst`, the last `limit` of the reminders `list(dueFrom:dueBefore:includeDone:limit:)`
    /// would give without a limit, last first (latest due first, those without a time before them).
    /// The default reads every match.
    func list(dueFrom: Date?, dueBefore: Date?, includeDone: Bool, limit: Int, lastFirst: Bool) async throws -> [Reminder]
    /// Marks the reminder done, completed now; one already done is left as it is. `nil` when
    /// there is no reminder with `id`.
    func complete(id: String) async throws -> ReminderCompletion?
    /// Undoes `complete`: marks the reminder not done, if it is done and was completed at
    /// `completedAt`; `false` when it changed nothing.
    @discardableResult func reopen(id: String, completedAt: Date) async throws -> Bool
    /// Deletes the reminder with `id`; `false` when there was none.
    @discardableResult func delete(id: String) async throws -> Bool
    /// Deletes these reminders atomically and returns them as they were, in list order.
    func delete(ids: [String]) async throws -> [DeletedReminder]
    /// Puts back deleted reminders exactly as they were, all or none.
    func restore(_ reminders: [DeletedReminder]) async throws
}

extension RemindersStoring {
    public func list(dueFrom: Date?, dueBefore: Date?, includeDone: Bool, limit: Int, lastFirst: Bool) async throws -> [Reminder] {
        guard lastFirst else { return try await list(dueFrom: dueFrom, dueBefore: dueBefore, includeDone: includeDone, limit: limit) }
        let all = try await list(dueFrom: dueFrom, dueBefore: dueBefore, includeDone: includeDone, limit: Int.max)
        return Array(all.suffix(max(0, limit)).reversed())
    }
}
