import Foundation
import SkillbookCore

/// `reminders.list`: the reminders due before a time or on a day, with a summary to read.
struct RemindersListSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "reminders.list",
        title: "List reminders",
        summary: "Lists reminders that are not done (or all with include_done), by due time, optionally only "
            + "those due before a time or on a day (a day of the local time zone), and returns "
            + "{ items, count, text } where each item has id, title, due (UTC), notes and done, and text is "
            + "a summary to read or put in a note: '2 reminders due:' followed by one line each, or "
            + "'No reminders due.' when there are none.",
        examples: [
            "what are my reminders", "show reminders due {due_on}", "list my reminders", "list my reminders for {due_on}",
            "what do I have to do {due_on}", "which reminders are due before {due_before}", "我的提醒", "列出我的提醒",
            "{due_on}有什么提醒", "{due_on}要做什么", "查看提醒", "{due_on}有哪些提醒", "{due_on}的提醒有哪些",
            "what reminders do I have {due_on}", "which reminders are due {due_on}",
            "what's on my reminders for {due_on}", "what's on my list {due_on}",
            "{due_before}之前到期的提醒", "查一下{due_on}的提醒",
        ],
        tags: ["reminders", "read", "time"],
        kind: .query,
        parameters: .object(
            [
                "due_before": .string(
                    "Only reminders due before this time (not at it), such as 2026-11-30T18:00:00Z or tomorrow 9am. "
                        + "Reminders without a time are left out.",
                    format: "date-time"),
                "due_on": .string(
                    "Only reminders due on this day of the local time zone, such as 2026-11-30, today or tomorrow. "
                        + "Reminders without a time are left out.",
                    format: "date"),
                "include_done": .boolean("Also list reminders that are done.", default: false),
                "limit": .integer("At most this many reminders.", minimum: 1, maximum: 1000, default: 100),
                "order": .string(
                    "newest: the last reminders of the list order (latest due first; so limit: 10 is the last 10); "
                        + "oldest: the first, soonest due first.",
                    enum: ["newest", "oldest"], default: "newest"),
            ]),
        output: .object(
            [
                "items": .array(
                    ReminderValues.schema(),
                    "The reminders by due time (those without a time last), then oldest first; reversed with order: newest."),
                "count": .integer("How many reminders are in items.", minimum: 0),
                "text": .string(
                    "A summary for people: a heading line ('3 reminders due:') and one line per reminder with "
                        + "its local time, or 'No reminders due.'"),
            ],
            required: ["items", "count", "text"]),
        timeout: 30,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let now = environment.clock.now()
        let timeZone = context.timeZone
        var from: Date?
        var before: Date?
        if let text = parameters["due_before"]?.stringValue {
            before = try ReminderValues.instant(text, parameter: "due_before", now: now, timeZone: timeZone)
        }
        if let text = parameters["due_on"]?.stringValue {
            let day = try ReminderValues.day(text, parameter: "due_on", now: now, timeZone: timeZone)
            from = day.start
            before = min(before ?? day.end, day.end)
        }
        let includeDone = parameters["include_done"]?.boolValue ?? false
        let limit = parameters["limit"]?.intValue ?? 100
        let store = try environment.remindersStore()
        let reminders = try await SkillError.reporting {
            try await store.list(
                dueFrom: from, dueBefore: before, includeDone: includeDone, limit: limit,
                lastFirst: parameters["order"]?.stringValue != "oldest")
        }
        let text = Self.summary(
            reminders, filtered: from != nil || before != nil, oneDay: parameters["due_on"] != nil, timeZone: timeZone)
        return [
            "items": .array(reminders.map(\.value)), "count": .int(reminders.count), "text": .string(text),
        ]
    }

    /// `2 reminders due:` (or `2 reminders:` when not filtered by time) and a line per reminder:
    /// `- 09:00 Call Anna` with the local time (and date, unless the list is of one day), `(done)`
    /// after done ones (a title's line breaks become spaces); `No reminders due.` for none.
    static func summary(_ reminders: [Reminder], filtered: Bool, oneDay: Bool, timeZone: TimeZone) -> String {
        let due = filtered ? " due" : ""
        guard !reminders.isEmpty else { return "No reminders\(due)." }
        var lines = ["\(reminders.count) reminder\(reminders.count == 1 ? "" : "s")\(due):"]
        for reminder in reminders {
            var line = "- "
            if let date = reminder.due {
                let local = DateParser.formatDateTime(date, timeZone: timeZone)  // 2026-11-30T09:00:00+01:00
                let time = local.dropFirst(11).prefix(5)
                line += oneDay ? "\(time) " : "\(local.prefix(10)) \(time) "
            }
            line += reminder.title.split(whereSeparator: \.isNewline).joined(separator: " ")
            if reminder.done { line += " (done)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
