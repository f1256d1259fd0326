import SkillbookCore

/// `files.copy`: copies files and folders — several into one folder, or each to its own path;
/// undone by removing the copies.
struct FilesCopySkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "files.copy",
        title: "Copy files",
        summary: "Copies files and folders (with everything in them), either a list of paths into one folder "
            + "(into, created if missing) or each one to its own new path (copies: a list of { from, to }; missing "
            + "folders are created), and returns { copied, created }: each { from, to } as absolute paths, and "
            + "the folders it created. It never overwrites: if any destination already exists, or any path is "
            + "outside the allowed folders, nothing is copied. At most 100 items per call; longer lists run in "
            + "batches. Undoing it removes the copies and the folders it created if they are empty.",
        examples: [
            "copy {paths} into {into}", "copy {paths} to {into}", "make a copy of report.txt",
            "duplicate the folder", "把{paths}复制到{into}", "把{paths}复制进去", "复制这些文件",
        ],
        tags: ["files", "write", "copy"],
        kind: .action,
        parameters: FileTransfer.parameters(.copy),
        output: FileTransfer.output(.copy),
        resources: ["files"],
        timeout: 300,
        idempotent: false,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        try await FileTransfer(operation: .copy, environment: environment).run(parameters, context: context)
    }

    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        try FileTransfer(operation: .copy, environment: environment).compensate(call)
    }
}
