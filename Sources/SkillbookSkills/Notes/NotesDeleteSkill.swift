import Foundation
import SkillbookCore

/// `notes.delete`: deletes notes by id; undone by putting them back exactly as they were.
struct NotesDeleteSkill: Skill {
    let environment: SkillEnvironment

    /// The most ids one call takes; the engine splits longer lists into batches of this size.
    static let maxIDs = 100
    static let deletion = DeleteByIDs(skill: "notes.delete", noun: "note", listField: "notes", maxIDs: maxIDs)

    let descriptor = SkillDescriptor(
        id: "notes.delete",
        title: "Delete notes",
        summary: "Deletes the notes with the given ids, all in one go, and returns { deleted, notes } where "
            + "notes are the deleted notes as they were (id, title, body, tags, created). Ids without a "
            + "note are skipped. Asks before running. Undoing it puts the notes back exactly as they were.",
        examples: [
            "delete these notes", "remove the note", "delete the notes with these ids",
            "throw away these notes", "删除这些笔记", "删掉这条笔记",
        ],
        tags: ["notes", "write", "delete"],
        kind: .action,
        confirm: true,
        parameters: .object(
            [
                "ids": .array(
                    .string("A note's id.", minLength: 1),
                    "The ids of the notes to delete (at most \(maxIDs) per call; longer lists run in batches).",
                    minItems: 1, maxItems: maxIDs)
            ],
            required: ["ids"]),
        output: .object(
            [
                "deleted": .integer("How many notes were deleted (ids without a note do not count).", minimum: 0),
                "notes": .array(
                    .object(
                        [
                            "id": .string("The note's id."),
                            "title": .string("The note's title."),
                            "body": .string("The note's text."),
                            "tags": .array(.string(), "The note's tags."),
                            "created": .string("When the note was created, in UTC.", format: "date-time"),
                            "position": .integer(
                                "Where the note sat among notes created in the same second (a sort key, not an "
                                    + "index); used to put it back in its place."),
                        ],
                        required: ["id", "title", "body", "tags", "created", "position"]),
                    "The deleted notes as they were, oldest first."),
            ],
            required: ["deleted", "notes"]),
        resources: ["notes"],
        timeout: 30,
        idempotent: true,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let ids = try Self.deletion.ids(parameters)
        try Task.checkCancellation()
        let store = try environment.notesStore()
        let deleted = try await SkillError.reporting { try await store.delete(ids: ids) }
        return ["deleted": .int(deleted.count), "notes": .array(deleted.map(Self.value))]
    }

    /// The notes it would delete, by title.
    func preview(_ parameters: ValueObject) async -> CallPreview? {
        guard let store = try? environment.notesStore() else { return nil }
        return await Self.deletion.preview(parameters) { try await store.get(id: $0)?.title }
    }

    /// Puts the deleted notes back exactly as they were (same id, fields, `created` and place in the
    /// list), all or none. Notes already back unchanged are left alone, so it is safe to retry.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        let notes = try Self.deletion.deletedItems(
            call, needs: "id, title, body, tags, created and position", decode: Self.deletedNote)
        let store = try environment.notesStore()
        try await SkillError.reporting { try await store.restore(notes) }
    }

    /// `{ id, title, body, tags, created, position }`.
    static func value(_ deleted: DeletedNote) -> Value {
        guard case .object(var object) = deleted.note.value else { return deleted.note.value }
        object["position"] = .int(deleted.position)
        return .object(object)
    }

    /// The inverse of `value`; `nil` when a field is missing or of the wrong type.
    static func deletedNote(_ value: Value) -> DeletedNote? {
        guard let id = value["id"]?.stringValue, let title = value["title"]?.stringValue,
            let body = value["body"]?.stringValue, let tagValues = value["tags"]?.arrayValue,
            let createdText = value["created"]?.stringValue, let position = value["position"]?.intValue,
            let created = try? Date(createdText, strategy: .iso8601)
        else { return nil }
        let tags = tagValues.compactMap(\.stringValue)
        guard tags.count == tagValues.count else { return nil }
        return DeletedNote(
            note: Note(id: id, title: title, body: body, tags: tags, created: created), position: position)
    }
}
