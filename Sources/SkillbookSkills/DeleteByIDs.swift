import SkillbookCore

/// What `notes.delete` and `reminders.delete` share: up to `maxIDs` ids per call, and an undo that
/// puts back the items listed in the call's output.
struct DeleteByIDs {
    /// The skill's id, for messages.
    var skill: String
    /// What it deletes, singular (`note`).
    var noun: String
    /// The output field that lists the deleted items (`notes`).
    var listField: String
    var maxIDs: Int

    /// The `ids` parameter. The engine validates parameters first; this guards direct callers, so
    /// that one call never deletes more than a batch.
    /// One line per id for a confirmation: what `title` finds for it (`nil`: nothing has that id,
    /// it is skipped), or why it cannot be read.
    func preview(_ parameters: ValueObject, title: (String) async throws -> String?) async -> CallPreview {
        var items: [String] = []
        for id in (parameters["ids"]?.arrayValue ?? []).compactMap(\.stringValue) {
            do {
                items.append(try await title(id).map { "\($0) (\(id))" } ?? "\(id): no such \(noun); skipped")
            } catch {
                items.append("\(id): cannot be read (\(error))")
            }
        }
        return CallPreview(noun: "\(noun)s", items: items)
    }

    func ids(_ parameters: ValueObject) throws -> [String] {
        let items = parameters["ids"]?.arrayValue ?? []
        let ids = items.compactMap(\.stringValue)
        guard !ids.isEmpty, ids.count == items.count, ids.count <= maxIDs else {
            throw SkillError("\(skill) takes 1 to \(maxIDs) \(noun) ids (text) per call, got \(items.count)")
        }
        return ids
    }

    /// The deleted items of `call`'s output, each read back by `decode`; an error naming the first
    /// one that is incomplete (`needs` says what an item must have).
    func deletedItems<Item>(_ call: CompletedCall, needs: String, decode: (Value) -> Item?) throws -> [Item] {
        guard let items = call.output[listField]?.arrayValue else {
            throw SkillError("cannot undo \(skill): its output has no list of deleted \(noun)s")
        }
        var decoded: [Item] = []
        decoded.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let value = decode(item) else {
                throw SkillError("cannot undo \(skill): deleted \(noun) \(index) in its output is incomplete (it needs \(needs))")
            }
            decoded.append(value)
        }
        return decoded
    }
}
