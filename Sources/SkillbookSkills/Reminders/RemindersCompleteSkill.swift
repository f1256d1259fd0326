import SkillbookCore

/// `reminders.complete`: marks a reminder done; undone by marking it not done again.
struct RemindersCompleteSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "reminders.complete",
        title: "Complete a reminder",
        summary: "Marks the reminder with the given id as done and returns { id, title, done, completed_at, "
            + "was_done }. Completing a reminder that is already done changes nothing (was_done is then true). "
            + "Undoing it marks the reminder not done again.",
        examples: [
            "mark the reminder as done", "complete this reminder", "I called Anna, tick it off",
            "check off the reminder",
        ],
        tags: ["reminders", "write"],
        kind: .action,
        parameters: .object(
            ["id": .string("The id of the reminder, as reminders.list or reminders.create returned it.", minLength: 1)],
            required: ["id"]),
        output: .object(
            [
                "id": .string("The reminder's id."),
                "title": .string("The reminder's title."),
                "done": .boolean("Always true: the reminder is done."),
                "completed_at": .string("When it was completed, in UTC.", format: "date-time"),
                "was_done": .boolean("Whether it was already done before this call (which then changed nothing)."),
            ],
            required: ["id", "title", "done", "completed_at", "was_done"]),
        resources: ["reminders"],
        timeout: 30,
        idempotent: true,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let id = parameters["id"]?.stringValue ?? ""
        try Task.checkCancellation()
        let store = try environment.remindersStore()
        let completion = try await SkillError.reporting { try await store.complete(id: id) }
        guard let completion, let completedAt = completion.reminder.completedAtText else {
            throw SkillError("there is no reminder with id '\(id)'; reminders.list shows the reminders and their ids")
        }
        return [
            "id": .string(id), "title": .string(completion.reminder.title), "done": true,
            "completed_at": .string(completedAt), "was_done": .bool(completion.wasDone),
        ]
    }

    /// Marks the reminder not done again, with no completion time, as it was before the call. A call
    /// that found it already done changed nothing and undoes nothing; a reminder completed again at
    /// another time since, reopened or deleted is left alone, so it is safe to retry.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let id = call.output["id"]?.stringValue, let wasDone = call.output["was_done"]?.boolValue,
            let completedAt = call.output["completed_at"]?.stringValue.flatMap(ReminderValues.date)
        else {
            throw SkillError("cannot undo reminders.complete: its output needs id, was_done and completed_at")
        }
        guard !wasDone else { return }
        let store = try environment.remindersStore()
        _ = try await SkillError.reporting { try await store.reopen(id: id, completedAt: completedAt) }
    }
}
