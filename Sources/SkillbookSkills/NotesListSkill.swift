import SkillbookCore

/// `notes.list`: the saved notes, oldest first.
struct NotesListSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "notes.list",
        title: "List notes",
        summary: "Lists saved notes, oldest first, optionally only those with a tag, and returns "
            + "{ items, count } where each item has id, title, body, tags and created.",
        examples: ["list my notes", "show notes tagged work", "what notes do I have", "show my notes"],
        tags: ["notes", "read"],
        kind: .query,
        parameters: .object(
            [
                "tag": .string("Only notes with this tag (exact match).", minLength: 1),
                "limit": .integer("At most this many notes.", minimum: 1, maximum: 1000, default: 100),
            ]),
        output: .object(
            [
                "items": .array(
                    .object(
                        [
                            "id": .string("The note's id."),
                            "title": .string("The note's title."),
                            "body": .string("The note's text."),
                            "tags": .array(.string(), "The note's tags."),
                            "created": .string("When the note was created, in UTC.", format: "date-time"),
                        ],
                        required: ["id", "title", "body", "tags", "created"]),
                    "The notes, oldest first."),
                "count": .integer("How many notes are in items.", minimum: 0),
            ],
            required: ["items", "count"]),
        timeout: 30,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let tag = parameters["tag"]?.stringValue
        let limit = parameters["limit"]?.intValue ?? 100
        let store = try environment.notesStore()
        let notes = try await SkillError.reporting { try await store.list(tag: tag, limit: limit) }
        return ["items": .array(notes.map(\.value)), "count": .int(notes.count)]
    }
}
