import SkillbookCore

/// `notes.create`: writes a note; undone by deleting it.
struct NotesCreateSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "notes.create",
        title: "Create a note",
        summary: "Saves a new note with a title, an optional body and optional tags, and returns its "
            + "{ id, title }. Undoing it deletes the note.",
        examples: [
            "create a note", "take a note", "write down buy milk", "note that the meeting moved to Friday",
            "save a note called ideas",
        ],
        tags: ["notes", "write"],
        kind: .action,
        parameters: .object(
            [
                "title": .string("A short title for the note.", minLength: 1, maxLength: 200),
                "body": .string("The text of the note.", default: ""),
                "tags": Schema(
                    type: .array, description: "Words to find the note by later.", defaultValue: [],
                    items: .string(minLength: 1)),
            ],
            required: ["title"]),
        output: .object(
            [
                "id": .string("The new note's id."),
                "title": .string("The new note's title."),
            ],
            required: ["id", "title"]),
        resources: ["notes"],
        timeout: 30,
        idempotent: false,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let title = parameters["title"]?.stringValue ?? ""
        let body = parameters["body"]?.stringValue ?? ""
        let tags = parameters["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
        try Task.checkCancellation()
        let store = try environment.notesStore()
        let note = try await SkillError.reporting {
            try await store.create(title: title, body: body, tags: tags)
        }
        return ["id": .string(note.id), "title": .string(note.title)]
    }

    /// Deletes the note the call created. A note that is already gone counts as undone.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let id = call.output["id"]?.stringValue else {
            throw SkillError("cannot undo notes.create: its output has no note id")
        }
        let store = try environment.notesStore()
        _ = try await SkillError.reporting { try await store.delete(id: id) }
    }
}
