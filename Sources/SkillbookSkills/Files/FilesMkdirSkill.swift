import SkillbookCore

/// `files.mkdir`: creates a folder (and, when asked, its missing parents); undone by removing
/// exactly the folders it created, if they are still empty.
struct FilesMkdirSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "files.mkdir",
        title: "Create a folder",
        summary: "Creates a folder and returns { path, created }: its absolute path and the folders actually "
            + "created, outermost first (none when it already existed, which is not an error). With parents: true "
            + "the missing folders above it are created too; otherwise they must exist. Only folders inside the "
            + "allowed folders can be created. Undoing it removes exactly the folders it created, if they are "
            + "still empty.",
        examples: [
            "create a folder called {path}", "make a folder called {path}", "make the folder {path}", "make {path}",
            "make a new directory", "mkdir {path}",
            "make a folder for the invoices", "新建文件夹{path}", "创建目录{path}", "建好文件夹{path}", "建一个目录{path}",
        ],
        tags: ["files", "write", "folder"],
        kind: .action,
        parameters: .object(
            [
                "path": .string(
                    "The folder to create, absolute or relative to the current directory.", minLength: 1,
                    format: "path"),
                "parents": .boolean("Also create the missing folders above it.", default: false),
            ],
            required: ["path"]),
        output: .object(
            [
                "path": .string("The folder's absolute path.", format: "path"),
                "created": .array(
                    .string(format: "path"), "The folders this call created, outermost first (empty when it existed)."),
            ],
            required: ["path", "created"]),
        resources: ["files"],
        timeout: 10,
        idempotent: true,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let folder = try environment.pathGuard.checkChangeable(parameters["path"]?.stringValue ?? "")
        let parents = parameters["parents"]?.boolValue == true
        try Task.checkCancellation()
        // The folders to create lie between the path and an existing folder; each must be allowed.
        var up = folder.target
        while !FileOps.exists(up) {
            guard environment.pathGuard.isAllowed(up) else {
                throw SkillError(
                    "cannot create the folder '\(folder.parameter)': it would need the folder '\(up)', which is "
                        + "outside the allowed folders (\(environment.pathGuard.roots.joined(separator: ", ")))")
            }
            let next = FileOps.parent(up)
            if next == up { break }
            up = next
        }
        let created = try FileOps.makeDirectory(folder.target, parents: parents)
        return ["path": .string(folder.target), "created": .array(created.map(Value.string))]
    }

    /// Removes the folders the call created, innermost first, when they are empty; a folder that is
    /// already gone is skipped, one that holds something is left and reported.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let values = call.output["created"]?.arrayValue else {
            throw SkillError("cannot undo files.mkdir: its output has no list of created folders")
        }
        var folders: [String] = []
        for value in values {
            guard let text = value.stringValue else { throw SkillError("cannot undo files.mkdir: created holds a non-path") }
            folders.append(try environment.pathGuard.checkRecorded(text).path)
        }
        let kept = try FileOps.removeCreatedFolders(folders)
        if !kept.isEmpty {
            throw SkillError(
                "cannot fully undo files.mkdir: "
                    + kept.map { "'\($0)'" }.joined(separator: ", ")
                    + (kept.count == 1 ? " is" : " are") + " not empty any more, so "
                    + (kept.count == 1 ? "it was" : "they were") + " left")
        }
    }
}
