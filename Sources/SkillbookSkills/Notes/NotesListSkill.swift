import SkillbookCore

/// `notes.list`: the saved notes, newest first (or oldest first with `order: oldest`).
struct NotesListSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "notes.list",
        title: "List notes",
        summary: "Lists saved notes, newest first (order: oldest for oldest first), optionally only those with a tag, "
            + "and returns { items, count } where each item has id, title, body, tags and created.",
        examples: [
            "list my notes", "show notes tagged {tag}", "list notes tagged {tag}", "what notes do I have", "show my notes", "列出我的笔记",
            "显示标签为{tag}的笔记", "我有哪些笔记", "看看我的笔记", "列出标签为{tag}的笔记", "标签是{tag}的笔记",
        ],
        tags: ["notes", "read"],
        kind: .query,
        parameters: .object(
            [
                "tag": .string("Only notes with this tag (exact match).", minLength: 1),
                "limit": .integer("At most this many notes.", minimum: 1, maximum: 1000, default: 100),
                "order": .string(
                    "newest: the newest notes, newest first (so limit: 10 is the last 10); oldest: the oldest, oldest first.",
                    enum: ["newest", "oldest"], default: "newest"),
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
                    "The notes, in the order asked for."),
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
        let newestFirst = parameters["order"]?.stringValue != "oldest"
        let notes = try await SkillError.reporting { try await store.list(tag: tag, limit: limit, newestFirst: newestFirst) }
        return ["items": .array(notes.map(\.value)), "count": .int(notes.count)]
    }
}
