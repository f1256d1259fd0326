import Foundation
import SkillbookCore

/// What the reminder skills share: reading times in the run's time zone, and reminders as values.
enum ReminderValues {
    /// The instant `text` names, read by the one date parser in `timeZone`: ISO 8601 (without an
    /// offset it is local time) or relative words for callers that bypass the engine's coercion.
    static func instant(
        _ text: String, parameter: String, now: Date, timeZone: TimeZone
    ) throws(SkillError) -> Date {
        guard let parsed = DateParser(now: now, timeZone: timeZone).parse(text) else {
            throw SkillError(
                "\(parameter) '\(text)' is not a date and time; write it like 2026-11-30T09:00:00Z, "
                    + "2026-11-30 09:00 or tomorrow 9am")
        }
        return parsed.date
    }

    /// The local day `text` names (`2026-11-30`, or the day of a date-time), as the instants of its
    /// start and of the next day's start in `timeZone`. A day is not always 24 hours long.
    static func day(
        _ text: String, parameter: String, now: Date, timeZone: TimeZone
    ) throws(SkillError) -> (start: Date, end: Date) {
        guard let parsed = DateParser(now: now, timeZone: timeZone).parse(text) else {
            throw SkillError("\(parameter) '\(text)' is not a day; write it like 2026-11-30, today or tomorrow")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = calendar.startOfDay(for: parsed.date)
        guard let next = calendar.date(byAdding: .day, value: 1, to: start) else {
            throw SkillError("\(parameter) '\(text)' is out of range")
        }
        return (start, calendar.startOfDay(for: next))
    }

    /// `{ id, title, due, notes, done, created, completed_at, position }` (no `due` or `completed_at`
    /// when it has none).
    static func value(_ deleted: DeletedReminder) -> Value {
        let reminder = deleted.reminder
        guard case .object(var object) = reminder.value else { return reminder.value }
        object["created"] = .string(reminder.createdText)
        if let completed = reminder.completedAtText { object["completed_at"] = .string(completed) }
        object["position"] = .int(deleted.position)
        return .object(object)
    }

    /// The inverse of `value`; `nil` when a field is missing, of the wrong type, or `done` and
    /// `completed_at` disagree.
    static func deletedReminder(_ value: Value) -> DeletedReminder? {
        guard let id = value["id"]?.stringValue, let title = value["title"]?.stringValue,
            let notes = value["notes"]?.stringValue, let done = value["done"]?.boolValue,
            let created = value["created"]?.stringValue.flatMap(date), let position = value["position"]?.intValue
        else { return nil }
        var due: Date?
        if let text = value["due"] {
            guard let date = text.stringValue.flatMap(date) else { return nil }
            due = date
        }
        var completedAt: Date?
        if let text = value["completed_at"] {
            guard let date = text.stringValue.flatMap(date) else { return nil }
            completedAt = date
        }
        guard done == (completedAt != nil) else { return nil }
        let reminder = Reminder(
            id: id, title: title, due: due, notes: notes, done: done, created: created, completedAt: completedAt)
        return DeletedReminder(reminder: reminder, position: position)
    }

    static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    /// The schema of a reminder in outputs, with `extra` properties after the common ones.
    static func schema(_ extra: KeyValuePairs<String, Schema> = [:], required extraRequired: [String] = []) -> Schema {
        var properties: [(name: String, schema: Schema)] = [
            ("id", .string("The reminder's id.")),
            ("title", .string("What to be reminded of.")),
            ("due", .string("When it is due, in UTC; absent when it has no time.", format: "date-time")),
            ("notes", .string("More text about it.")),
            ("done", .boolean("Whether it has been completed.")),
        ]
        properties += extra.map { ($0.key, $0.value) }
        return Schema(
            type: .object, properties: properties, required: ["id", "title", "notes", "done"] + extraRequired,
            additionalProperties: false)
    }
}
