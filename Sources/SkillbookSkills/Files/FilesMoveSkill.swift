import SkillbookCore

/// `files.move`: moves files and folders — several into one folder, or each to its own path; undone
/// by moving them back.
struct FilesMoveSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "files.move",
        title: "Move files",
        summary: "Moves files and folders, either a list of paths into one folder (into, created if missing) or "
            + "each one to its own new path (moves: a list of { from, to }; missing folders are created), and "
            + "returns { moved, created }: each { from, to } as absolute paths, and the folders it created. It "
            + "never overwrites: if any destination already exists, or any path is outside the allowed folders, "
            + "nothing is moved. At most 100 items per call; longer lists run in batches. Undoing it moves "
            + "everything back and removes the folders it created if they are empty.",
        examples: [
            "move {paths} into {into}", "move {paths} to {into}", "move the pdfs to Documents",
            "rename report.txt to report-2024.txt", "put these files in a folder", "把{paths}移到{into}", "把{paths}移动到{into}", "把{paths}移进去",
            "移动这些文件",
        ],
        tags: ["files", "write", "move", "rename"],
        kind: .action,
        parameters: FileTransfer.parameters(.move),
        output: FileTransfer.output(.move),
        resources: ["files"],
        timeout: 120,
        idempotent: false,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        try await FileTransfer(operation: .move, environment: environment).run(parameters, context: context)
    }

    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        try FileTransfer(operation: .move, environment: environment).compensate(call)
    }
}
