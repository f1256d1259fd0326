import SkillbookCore

/// `notes.create_many`: writes up to 50 notes at once, all or none; undone by deleting them.
struct NotesCreateManySkill: Skill {
    let environment: SkillEnvironment

    /// The most notes one call writes; the engine splits longer lists into batches of this size.
    static let maxNotes = 50

    let descriptor = SkillDescriptor(
        id: "notes.create_many",
        title: "Create several notes",
        summary: "Saves several new notes at once, each with a title, an optional body and optional tags, "
            + "and returns { ids, count } with the new ids in the order given. Either every note is saved "
            + "or none is. Undoing it deletes exactly those notes.",
        examples: [
            "create several notes", "save these notes", "add a note for each of these items",
            "import these ideas as notes", "make notes from this list", "批量创建笔记", "把这些条目都存成笔记",
        ],
        tags: ["notes", "write", "batch"],
        kind: .action,
        parameters: .object(
            [
                "notes": .array(
                    .object(
                        [
                            "title": .string("A short title for the note.", minLength: 1, maxLength: 200),
                            "body": .string("The text of the note.", default: ""),
                            "tags": Schema(
                                type: .array, description: "Words to find the note by later.", defaultValue: [],
                                items: .string(minLength: 1)),
                        ],
                        required: ["title"]),
                    "The notes to save, in order (at most \(maxNotes) per call; longer lists run in batches).",
                    minItems: 1, maxItems: maxNotes)
            ],
            required: ["notes"]),
        output: .object(
            [
                "ids": .array(.string("A new note's id."), "The new notes' ids, in the order the notes were given."),
                "count": .integer("How many notes were saved.", minimum: 0),
            ],
            required: ["ids", "count"]),
        resources: ["notes"],
        timeout: 30,
        idempotent: false,
        reversible: true, undoReads: ["ids"])

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let drafts = (parameters["notes"]?.arrayValue ?? []).map { item in
            NoteDraft(
                title: item["title"]?.stringValue ?? "",
                body: item["body"]?.stringValue ?? "",
                tags: item["tags"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        // The engine validates parameters first; this guards direct callers, so that one call never
        // writes more than a batch.
        guard !drafts.isEmpty, drafts.count <= Self.maxNotes else {
            throw SkillError("notes.create_many takes 1 to \(Self.maxNotes) notes per call, got \(drafts.count)")
        }
        try Task.checkCancellation()
        let store = try environment.notesStore()
        let notes = try await SkillError.reporting { try await store.create(drafts) }
        return ["ids": .array(notes.map { .string($0.id) }), "count": .int(notes.count)]
    }

    /// Deletes exactly the notes the call created. Notes already gone count as undone, so it is safe
    /// to retry.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let items = call.output["ids"]?.arrayValue else {
            throw SkillError("cannot undo notes.create_many: its output has no list of note ids")
        }
        let ids = items.compactMap(\.stringValue)
        guard ids.count == items.count else {
            throw SkillError("cannot undo notes.create_many: its output's ids are not all text")
        }
        let store = try environment.notesStore()
        _ = try await SkillError.reporting { try await store.delete(ids: ids) }
    }
}
