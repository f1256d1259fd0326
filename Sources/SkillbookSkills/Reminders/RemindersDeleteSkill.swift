import SkillbookCore

/// `reminders.delete`: deletes reminders by id; undone by putting them back exactly as they were.
struct RemindersDeleteSkill: Skill {
    let environment: SkillEnvironment

    /// The most ids one call takes; the engine splits longer lists into batches of this size.
    static let maxIDs = 100
    static let deletion = DeleteByIDs(skill: "reminders.delete", noun: "reminder", listField: "reminders", maxIDs: maxIDs)

    let descriptor = SkillDescriptor(
        id: "reminders.delete",
        title: "Delete reminders",
        summary: "Deletes the reminders with the given ids, all in one go, and returns { deleted, reminders } "
            + "where reminders are the deleted reminders as they were (id, title, due, notes, done, created, "
            + "completed_at). Ids without a reminder are skipped. Asks before running. Undoing it puts the "
            + "reminders back exactly as they were.",
        examples: [
            "delete these reminders", "remove the reminder", "cancel the reminder", "clear these reminders",
            "删除这些提醒", "取消提醒",
        ],
        tags: ["reminders", "write", "delete"],
        kind: .action,
        confirm: true,
        parameters: .object(
            [
                "ids": .array(
                    .string("A reminder's id.", minLength: 1),
                    "The ids of the reminders to delete (at most \(maxIDs) per call; longer lists run in batches).",
                    minItems: 1, maxItems: maxIDs)
            ],
            required: ["ids"]),
        output: .object(
            [
                "deleted": .integer("How many reminders were deleted (ids without a reminder do not count).", minimum: 0),
                "reminders": .array(
                    ReminderValues.schema(
                        [
                            "created": .string("When it was created, in UTC.", format: "date-time"),
                            "completed_at": .string(
                                "When it was completed, in UTC; absent when it is not done.", format: "date-time"),
                            "position": .integer(
                                "Where it sat among reminders due and created at the same time (a sort key, not "
                                    + "an index); used to put it back in its place."),
                        ],
                        required: ["created", "position"]),
                    "The deleted reminders as they were, in list order."),
            ],
            required: ["deleted", "reminders"]),
        resources: ["reminders"],
        timeout: 30,
        idempotent: true,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let ids = try Self.deletion.ids(parameters)
        try Task.checkCancellation()
        let store = try environment.remindersStore()
        let deleted = try await SkillError.reporting { try await store.delete(ids: ids) }
        return ["deleted": .int(deleted.count), "reminders": .array(deleted.map(ReminderValues.value))]
    }

    /// The reminders it would delete, by title.
    func preview(_ parameters: ValueObject) async -> CallPreview? {
        guard let store = try? environment.remindersStore() else { return nil }
        return await Self.deletion.preview(parameters) { try await store.get(id: $0)?.title }
    }

    /// Puts the deleted reminders back exactly as they were (same id, fields, times, done state and
    /// place in the list), all or none. Reminders already back unchanged are left alone, so it is
    /// safe to retry.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        let reminders = try Self.deletion.deletedItems(
            call, needs: "id, title, notes, done, created and position, and completed_at when done",
            decode: ReminderValues.deletedReminder)
        let store = try environment.remindersStore()
        try await SkillError.reporting { try await store.restore(reminders) }
    }
}
