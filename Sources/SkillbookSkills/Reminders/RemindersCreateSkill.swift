import SkillbookCore

/// `reminders.create`: saves a reminder; undone by deleting it.
struct RemindersCreateSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "reminders.create",
        title: "Create a reminder",
        summary: "Saves a reminder with a title, an optional due time and optional notes, and returns "
            + "{ id, title, due } with due in UTC. The due time may be written as a date and time "
            + "(2026-11-30T09:00, read in the local time zone unless it has an offset) or in words "
            + "(tomorrow 9am, next monday 18:00, in 2 hours, 明天早上9点). Undoing it deletes the reminder.",
        examples: [
            "remind me {due} to {title}", "remind me to {title} {due}", "remind me to {title}",
            "add a reminder to {title}", "set a reminder for {due}", "make a reminder for {due} to {title}", "make a reminder to {title}", "create a reminder", "add a reminder",
            "提醒我{due}{title}", "{due}提醒我{title}", "提醒我{title}", "添加提醒{title}", "新建一个提醒",
        ],
        tags: ["reminders", "write", "time"],
        kind: .action,
        parameters: .object(
            [
                "title": .string("What to be reminded of.", minLength: 1, maxLength: 200),
                "due": .string(
                    "When it is due: a date and time such as 2026-11-30T09:00:00+01:00, or words such as "
                        + "tomorrow 9am or in 2 hours. Leave it out for a reminder without a time.",
                    format: "date-time"),
                "notes": .string("More text about it.", maxLength: 10_000, default: ""),
            ],
            required: ["title"]),
        output: .object(
            [
                "id": .string("The new reminder's id."),
                "title": .string("The new reminder's title."),
                "due": .string("When it is due, in UTC; absent when it has no time.", format: "date-time"),
            ],
            required: ["id", "title"]),
        resources: ["reminders"],
        timeout: 30,
        idempotent: false,
        reversible: true, undoReads: ["id"])

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let title = parameters["title"]?.stringValue ?? ""
        let notes = parameters["notes"]?.stringValue ?? ""
        let due = try parameters["due"]?.stringValue.map { (text) throws(SkillError) in
            try ReminderValues.instant(
                text, parameter: "due", now: environment.clock.now(), timeZone: context.timeZone)
        }
        try Task.checkCancellation()
        let store = try environment.remindersStore()
        let reminder = try await SkillError.reporting {
            try await store.create(title: title, due: due, notes: notes)
        }
        var output: ValueObject = ["id": .string(reminder.id), "title": .string(reminder.title)]
        if let dueText = reminder.dueText { output["due"] = .string(dueText) }
        return .object(output)
    }

    /// Deletes the reminder the call created. A reminder that is already gone counts as undone.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let id = call.output["id"]?.stringValue else {
            throw SkillError("cannot undo reminders.create: its output has no reminder id")
        }
        let store = try environment.remindersStore()
        _ = try await SkillError.reporting { try await store.delete(id: id) }
    }
}
