import SkillbookCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `files.delete`: moves files and folders into Skillbook's trash; undone by putting them back.
///
/// Each call gets its own folder `<state>/trash/<time>-<unique>/`, holding item `i` as `i/<name>`,
/// so that names never collide and compensation puts each back exactly (same path, content, modes
/// and modification time: a rename within a file system keeps them all; across file systems they are
/// copied). The folder is emptied once it is older than every run left in the journal (see `Trash`).
struct FilesDeleteSkill: Skill {
    let environment: SkillEnvironment

    static let maxItems = 100

    let descriptor = SkillDescriptor(
        id: "files.delete",
        title: "Delete files",
        summary: "Deletes files and folders (with everything in them) by moving them into Skillbook's trash in "
            + "the state directory, and returns { deleted, trash }: each { path, trashed } and the trash folder of "
            + "this call. If any path does not exist or is outside the allowed folders, nothing is deleted. At "
            + "most 100 paths per call; longer lists run in batches. Asks before running. Undoing it puts every "
            + "file and folder back exactly as it was.",
        examples: [
            "delete the file {paths}", "delete {paths}", "delete these files", "remove {paths}", "throw away the temp folder",
            "trash {paths}", "删除文件{paths}", "删除{paths}", "删掉{paths}", "把{paths}清掉",
        ],
        tags: ["files", "write", "delete"],
        kind: .action,
        confirm: true,
        parameters: .object(
            [
                "paths": .array(
                    .string("A file or folder to delete.", minLength: 1, format: "path"),
                    "The files and folders to delete (at most \(maxItems) per call; longer lists run in batches).",
                    minItems: 1, maxItems: maxItems)
            ],
            required: ["paths"]),
        output: .object(
            [
                "deleted": .array(
                    .object(
                        [
                            "path": .string("Where the file or folder was (absolute).", format: "path"),
                            "trashed": .string("Where it is kept in the trash until undone.", format: "path"),
                        ],
                        required: ["path", "trashed"]),
                    "Every file and folder deleted, in order."),
                "trash": .string("This call's folder in the trash.", format: "path"),
            ],
            required: ["deleted", "trash"]),
        resources: ["files"],
        timeout: 120,
        idempotent: false,
        reversible: true)

    /// The paths it would move to the trash, as given.
    func preview(_ parameters: ValueObject) async -> CallPreview? {
        CallPreview(noun: "paths", items: (parameters["paths"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let items = parameters["paths"]?.arrayValue ?? []
        let texts = items.compactMap(\.stringValue)
        guard !texts.isEmpty, texts.count == items.count, texts.count <= Self.maxItems else {
            throw SkillError("files.delete takes 1 to \(Self.maxItems) paths per call, got \(items.count)")
        }
        let guardian = environment.pathGuard
        var paths: [GuardedPath] = []
        for text in texts {
            let path = try guardian.checkChangeable(text, removing: true)
            guard FileOps.exists(path.path) else { throw SkillError("there is nothing at '\(text)'") }
            if let other = paths.first(where: {
                FileOps.isInside(path.path, $0.path) || FileOps.isInside($0.path, path.path)
            }) {
                throw SkillError(
                    "files.delete: '\(other.parameter)' and '\(text)' overlap (one is, or is inside, the other); "
                        + "give each file or folder once")
            }
            paths.append(path)
        }
        try Task.checkCancellation()
        let trash = try environment.newTrashFolder()
        var done: [(path: String, trashed: String)] = []
        do {
            for (index, path) in paths.enumerated() {
                try Task.checkCancellation()
                let slot = FileOps.join(trash, String(index + 1))
                _ = try FileOps.makeDirectory(slot, parents: false)
                let trashed = FileOps.join(slot, path.name)
                try FileOps.move(path.path, to: trashed)
                done.append((path.path, trashed))
                context.progress(index + 1, paths.count)
            }
        } catch {
            for item in done.reversed() { try? FileOps.move(item.trashed, to: item.path) }
            try? FileOps.remove(trash)
            throw error
        }
        let deleted = done.map { item -> Value in ["path": .string(item.path), "trashed": .string(item.trashed)] }
        return ["deleted": .array(deleted), "trash": .string(trash)]
    }

    /// Puts every file and folder back where it was, last first. Everything is checked before
    /// anything moves; items already back are skipped, so it is safe to retry.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let items = call.output["deleted"]?.arrayValue else {
            throw SkillError("cannot undo files.delete: its output has no list of deleted files")
        }
        let guardian = environment.pathGuard
        var restore: [(path: String, trashed: String)] = []
        for (index, item) in items.enumerated() {
            guard let pathText = item["path"]?.stringValue, let trashedText = item["trashed"]?.stringValue else {
                throw SkillError("cannot undo files.delete: deleted item \(index) has no path and trashed")
            }
            let path = try guardian.checkRecorded(pathText).path
            let trashed = try guardian.checkRecorded(trashedText).path
            switch (FileOps.exists(path), FileOps.exists(trashed)) {
            case (false, true):
                guard FileOps.targetKind(FileOps.parent(path)) == .directory else {
                    throw SkillError("cannot put '\(path)' back: its folder '\(FileOps.parent(path))' is gone")
                }
                restore.append((path, trashed))
            case (true, false): continue  // already back
            case (true, true): throw SkillError("cannot put '\(path)' back: something else is there now")
            case (false, false): throw SkillError("cannot put '\(path)' back: '\(trashed)' is no longer in the trash")
            }
        }
        for item in restore.reversed() {
            try FileOps.move(item.trashed, to: item.path)
            rmdir(FileOps.parent(item.trashed))
        }
        if let trash = call.output["trash"]?.stringValue, let folder = try? guardian.checkRecorded(trash).path,
            FileOps.isInside(folder, guardian.trash)
        {
            rmdir(folder)
        }
    }
}
