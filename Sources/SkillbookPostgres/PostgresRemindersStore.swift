public import Foundation
public import SkillbookCore
public import SkillbookSQL

/// Reminders kept in the PostgreSQL state, with the semantics of the SQLite `RemindersStore`:
/// listed by due time (those without one last), then oldest first, then insertion order
/// (`position`); times are ISO 8601 UTC text to the second, compared as text.
public final class PostgresRemindersStore: RemindersStoring {
    public let database: PostgresDatabase
    private let clock: any WallClock
    private let ids: IDGenerator

    public init(database: PostgresDatabase, clock: any WallClock = SystemClock(), ids: IDGenerator = .live) {
        self.database = database
        self.clock = clock
        self.ids = ids
    }

    private static let columns = "id, title, due, notes, done, created, completed_at"
    private static let order = #"ORDER BY due IS NULL, due COLLATE "C", created COLLATE "C", position"#

    private static func text(_ date: Date) -> String { DateParser.formatUTC(date) }
    private static func wholeSeconds(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
    private func now() -> Date { Self.wholeSeconds(clock.now()) }

    public func create(title: String, due: Date?, notes: String) throws -> Reminder {
        let reminder = Reminder(id: ids.next(), title: title, due: due.map(Self.wholeSeconds), notes: notes, created: now())
        try database.transaction(doing: "creating a reminder") { try insert(reminder, in: $0) }
        return reminder
    }

    public func get(id: String) throws -> Reminder? {
        try database.query("SELECT \(Self.columns) FROM reminders WHERE id = $1", [.text(id)], doing: "reading a reminder")
            .first.map(reminder)
    }

    public func list(dueFrom: Date?, dueBefore: Date?, includeDone: Bool, limit: Int) throws -> [Reminder] {
        try database.query(
            """
            SELECT \(Self.columns) FROM reminders
            WHERE ($1::text IS NULL OR (due IS NOT NULL AND due COLLATE "C" >= $1))
              AND ($2::text IS NULL OR (due IS NOT NULL AND due COLLATE "C" < $2))
              AND ($3::boolean OR NOT done)
            \(Self.order) LIMIT $4
            """,
            [
                SQLValue(dueFrom.map(Self.text)), SQLValue(dueBefore.map(Self.text)), .text(includeDone ? "true" : "false"),
                .integer(max(0, limit)),
            ], doing: "listing reminders"
        ).map(reminder)
    }

    public func complete(id: String) throws -> ReminderCompletion? {
        let completedAt = Self.text(now())
        return try database.transaction(doing: "completing a reminder") { transaction -> ReminderCompletion? in
            guard let row = try transaction.query("SELECT \(Self.columns) FROM reminders WHERE id = $1 FOR UPDATE", [.text(id)]).first
            else { return nil }
            let before = try reminder(row)
            guard !before.done else { return ReminderCompletion(reminder: before, wasDone: true) }
            try transaction.run("UPDATE reminders SET done = true, completed_at = $2 WHERE id = $1", [.text(id), .text(completedAt)])
            var after = before
            after.done = true
            after.completedAt = Self.date(completedAt)
            return ReminderCompletion(reminder: after, wasDone: false)
        }
    }

    @discardableResult
    public func reopen(id: String, completedAt: Date) throws -> Bool {
        try database.run(
            "UPDATE reminders SET done = false, completed_at = NULL WHERE id = $1 AND done AND completed_at = $2",
            [.text(id), .text(Self.text(completedAt))], doing: "reopening a reminder") > 0
    }

    @discardableResult
    public func delete(id: String) throws -> Bool {
        try database.run("DELETE FROM reminders WHERE id = $1", [.text(id)], doing: "deleting a reminder") > 0
    }

    public func delete(ids: [String]) throws -> [DeletedReminder] {
        guard !ids.isEmpty else { return [] }
        let list = SQLValue.text(JSONText.encode(.array(ids.map(Value.string))))
        return try database.transaction(doing: "deleting reminders") { transaction in
            let rows = try transaction.query(
                """
                SELECT position, \(Self.columns) FROM reminders WHERE id IN (SELECT json_array_elements_text($1::json))
                \(Self.order) FOR UPDATE
                """, [list])
            let deleted = try rows.map { row in
                guard let position = row.int("position") else { throw malformed(row.string("id")) }
                return DeletedReminder(reminder: try reminder(row), position: position)
            }
            try transaction.run("DELETE FROM reminders WHERE id IN (SELECT json_array_elements_text($1::json))", [list])
            return deleted
        }
    }

    public func restore(_ reminders: [DeletedReminder]) throws {
        guard !reminders.isEmpty else { return }
        try database.transaction(doing: "restoring reminders") { transaction in
            for deleted in reminders {
                let wanted = deleted.reminder
                if let row = try transaction.query("SELECT \(Self.columns) FROM reminders WHERE id = $1", [.text(wanted.id)]).first {
                    guard try reminder(row) == wanted else {
                        throw PostgresError(
                            .conflict,
                            message: "cannot restore reminder \(wanted.id) in state database \(database.location): "
                                + "a different reminder with that id exists")
                    }
                    continue
                }
                let taken = try !transaction.query("SELECT 1 FROM reminders WHERE position = $1", [.integer(deleted.position)]).isEmpty
                try insert(wanted, position: taken ? nil : deleted.position, in: transaction)
            }
        }
    }

    private func insert(_ reminder: Reminder, position: Int? = nil, in transaction: PostgresDatabase.Transaction) throws {
        let values: [SQLValue] = [
            .text(reminder.id), .text(reminder.title), SQLValue(reminder.dueText), .text(reminder.notes),
            .text(reminder.done ? "true" : "false"), .text(reminder.createdText), SQLValue(reminder.completedAtText),
        ]
        if let position {
            try transaction.run(
                "INSERT INTO reminders (position, \(Self.columns)) VALUES ($8, $1, $2, $3, $4, $5, $6, $7)", values + [.integer(position)])
        } else {
            try transaction.run("INSERT INTO reminders (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7)", values)
        }
    }

    private func reminder(_ row: Row) throws -> Reminder {
        guard let id = row.string("id"), let title = row.string("title"), let notes = row.string("notes"),
            let done = row.int("done"), let created = row.string("created").flatMap(Self.date)
        else { throw malformed(row.string("id")) }
        let due = row.string("due").flatMap(Self.date)
        let completedAt = row.string("completed_at").flatMap(Self.date)
        if (row.string("due") != nil && due == nil) || (row.string("completed_at") != nil && completedAt == nil) { throw malformed(id) }
        return Reminder(id: id, title: title, due: due, notes: notes, done: done != 0, created: created, completedAt: completedAt)
    }

    private static func date(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }

    private func malformed(_ id: String?) -> PostgresError {
        PostgresError(
            .malformedRow,
            message: "state database \(database.location) has a malformed reminder\(id.map { " \($0)" } ?? "") "
                + "(a column is missing or of the wrong type); it was probably edited by hand")
    }
}

/// The host uses it through `OffloadedReminders`, on the state's own threads.
extension PostgresRemindersStore: BlockingRemindersStore {}
