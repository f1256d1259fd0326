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
            "create a note called {title}", "make a note called {title}", "make a note called {title} with {body}",
            "create a note called {title} with {body}", "take a note {title}", "write down {title}", "note that {title}",
            "save a note called {title}", "save it as a note", "save that as a note", "create a note",
            "take a note", "note: {title}", "new note: {title}", "quick note: {title}", "jot down {title}", "make a note that {title}", "make a note: {title}", "记录{title}", "笔记：{title}", "新笔记：{title}", "记一下{title}", "记个笔记{title}", "新建笔记{title}", "新建一条笔记", "存成笔记", "保存为笔记",
            "save the list as a note", "save the result as a note", "把列表保存为笔记", "put it in a note",
            "put the list in a note called {title}", "add a note {title}", "整理成一条笔记", "写成笔记", "建一条笔记{title}",
            "把结果记成笔记", "记成一条笔记", "put the output in a note titled {title}", "save a note tagged {tags} saying {body}",
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
        reversible: true, undoReads: ["id"])

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
