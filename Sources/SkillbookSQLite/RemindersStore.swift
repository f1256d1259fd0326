public import Foundation
public import SkillbookCore
public import SkillbookSQL

/// Reminders kept in `<state directory>/skillbook.sqlite`, listed by due time (reminders without one
/// last), then oldest first.
///
/// Safe to use from concurrent tasks: it shares one `Database` connection, which serializes calls.
public final class RemindersStore: RemindersStoring {
    public let database: Database
    private let clock: any WallClock
    private let ids: IDGenerator

    public init(stateDirectory: URL, clock: any WallClock = SystemClock(), ids: IDGenerator = .live) throws(StoreError) {
        self.database = try StateDatabase.open(stateDirectory: stateDirectory)
        self.clock = clock
        self.ids = ids
    }

    private static let columns = "id, title, due, notes, done, created, completed_at"
    private static let order = "ORDER BY due IS NULL, due, created, rowid"

    /// ISO 8601 in UTC to the second, the form every time column holds.
    static func text(_ date: Date) -> String { DateParser.formatUTC(date) }

    /// `date` without its fraction of a second.
    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    private func now() -> Date { Self.wholeSeconds(clock.now()) }

    /// Writes a new reminder with a fresh id, created now; `due` is kept to the second.
    public func create(title: String, due: Date? = nil, notes: String = "") throws(StoreError) -> Reminder {
        let reminder = Reminder(id: ids.next(), title: title, due: due.map(Self.wholeSeconds), notes: notes, created: now())
        try insert(reminder)
        return reminder
    }

    /// The reminder with `id`, if there is one.
    public func get(id: String) throws(StoreError) -> Reminder? {
        guard let row = try database.query("SELECT \(Self.columns) FROM reminders WHERE id = ?", [.text(id)]).first
        else { return nil }
        return try reminder(from: row)
    }

    /// Reminders by due time (those without one last, and only when no time bound is given), then
    /// oldest first: due at or after `dueFrom` and before `dueBefore` when given, not done unless
    /// `includeDone`, at most `limit`.
    public func list(
        dueFrom: Date? = nil, dueBefore: Date? = nil, includeDone: Bool = false, limit: Int = 100
    ) throws(StoreError) -> [Reminder] {
        let rows = try database.query(
            """
            SELECT \(Self.columns) FROM reminders
            WHERE (?1 IS NULL OR (due IS NOT NULL AND due >= ?1))
              AND (?2 IS NULL OR (due IS NOT NULL AND due < ?2))
              AND (?3 = 1 OR done = 0)
            \(Self.order)
            LIMIT ?4
            """,
            [
                SQLValue(dueFrom.map(Self.text)), SQLValue(dueBefore.map(Self.text)), .integer(includeDone ? 1 : 0),
                .integer(max(0, limit)),
            ])
        var reminders: [Reminder] = []
        for row in rows { reminders.append(try reminder(from: row)) }
        return reminders
    }

    /// Marks the reminder done, completed now; one already done is left as it is (its completion
    /// time kept). `nil` when there is no reminder with `id`.
    public func complete(id: String) throws(StoreError) -> ReminderCompletion? {
        try transaction { () throws(StoreError) in
            guard let before = try get(id: id) else { return nil }
            guard !before.done else { return ReminderCompletion(reminder: before, wasDone: true) }
            var after = before
            after.done = true
            after.completedAt = now()
            try database.run(
                "UPDATE reminders SET done = 1, completed_at = ? WHERE id = ?",
                [SQLValue(after.completedAtText), .text(id)])
            return ReminderCompletion(reminder: after, wasDone: false)
        }
    }

    /// Marks the reminder not done (no completion time) if it was completed at `completedAt`; one
    /// completed at another time, already open, or gone is left alone. `true` when it changed.
    @discardableResult
    public func reopen(id: String, completedAt: Date) throws(StoreError) -> Bool {
        try database.run(
            "UPDATE reminders SET done = 0, completed_at = NULL WHERE id = ? AND done = 1 AND completed_at = ?",
            [.text(id), .text(Self.text(completedAt))]) > 0
    }

    /// Deletes the reminder with `id`; `false` when there was none.
    @discardableResult
    public func delete(id: String) throws(StoreError) -> Bool {
        try database.run("DELETE FROM reminders WHERE id = ?", [.text(id)]) > 0
    }

    /// Deletes the reminders with these ids in one transaction and returns them as they were, in list
    /// order. Ids without a reminder are skipped, and an id given twice counts once.
    public func delete(ids: [String]) throws(StoreError) -> [DeletedReminder] {
        guard !ids.isEmpty else { return [] }
        let idList = SQLValue.text(JSONText.encode(.array(ids.map(Value.string))))
        return try transaction { () throws(StoreError) in
            let rows = try database.query(
                """
                SELECT rowid AS position, \(Self.columns) FROM reminders
                WHERE id IN (SELECT value FROM json_each(?1))
                \(Self.order)
                """,
                [idList])
            var deleted: [DeletedReminder] = []
            for row in rows {
                guard let position = row.int("position") else { throw malformed(row.string("id")) }
                deleted.append(DeletedReminder(reminder: try reminder(from: row), position: position))
            }
            try database.run("DELETE FROM reminders WHERE id IN (SELECT value FROM json_each(?1))", [idList])
            return deleted
        }
    }

    /// Puts back deleted reminders exactly as they were, in one transaction (all or none): same id,
    /// fields, times and done state, and, when their old position is still free, the same place among
    /// reminders due and created at the same time.
    ///
    /// Safe to retry: a reminder already present unchanged is left alone. A different reminder with
    /// the same id is a `.conflict`, and then none of them is restored.
    public func restore(_ reminders: [DeletedReminder]) throws(StoreError) {
        guard !reminders.isEmpty else { return }
        try transaction { () throws(StoreError) in
            for deleted in reminders {
                let reminder = deleted.reminder
                if let existing = try get(id: reminder.id) {
                    guard existing == reminder else {
                        throw StoreError(
                            .conflict,
                            message: "cannot restore reminder \(reminder.id) in state database \(database.path): "
                                + "a different reminder with that id exists",
                            path: database.path)
                    }
                    continue
                }
                var rowid = SQLValue.integer(deleted.position)
                if try !database.query("SELECT 1 FROM reminders WHERE rowid = ?", [rowid]).isEmpty {
                    rowid = .null  // taken since the delete: let SQLite choose
                }
                try insert(reminder, rowid: rowid)
            }
        }
    }

    /// `rowid` `.null` lets SQLite choose one after every existing reminder.
    private func insert(_ reminder: Reminder, rowid: SQLValue = .null) throws(StoreError) {
        try database.run(
            "INSERT INTO reminders (rowid, \(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                rowid, .text(reminder.id), .text(reminder.title), SQLValue(reminder.dueText), .text(reminder.notes),
                .integer(reminder.done ? 1 : 0), .text(reminder.createdText), SQLValue(reminder.completedAtText),
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

    private func reminder(from row: Row) throws(StoreError) -> Reminder {
        guard let id = row.string("id"), let title = row.string("title"), let notes = row.string("notes"),
            let done = row.int("done"), let createdText = row.string("created"),
            let created = Self.date(createdText)
        else { throw malformed(row.string("id")) }
        var due: Date?
        if let dueText = row.string("due") {
            guard let date = Self.date(dueText) else { throw malformed(id) }
            due = date
        } else if row["due"] != .null {
            throw malformed(id)
        }
        var completedAt: Date?
        if let completedText = row.string("completed_at") {
            guard let date = Self.date(completedText) else { throw malformed(id) }
            completedAt = date
        } else if row["completed_at"] != .null {
            throw malformed(id)
        }
        return Reminder(
            id: id, title: title, due: due, notes: notes, done: done != 0, created: created, completedAt: completedAt)
    }

    private static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    private func malformed(_ id: String?) -> StoreError {
        StoreError(
            .malformedRow,
            message: "state database \(database.path) has a malformed reminder\(id.map { " \($0)" } ?? "") "
                + "(a column is missing or of the wrong type); it was probably edited by hand",
            path: database.path)
    }
}

/// The host uses it through `OffloadedReminders`, on the state's own threads.
extension RemindersStore: BlockingRemindersStore {}
