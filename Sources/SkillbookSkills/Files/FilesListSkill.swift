import Foundation
import SkillbookCore

/// `files.list`: the files in a folder, optionally matching a glob, optionally in sub-folders.
struct FilesListSkill: Skill {
    let environment: SkillEnvironment

    static let maxLimit = 10_000

    let descriptor = SkillDescriptor(
        id: "files.list",
        title: "List files",
        summary: "Lists the files in a folder (default: the current one), optionally only those whose name "
            + "matches a glob such as *.pdf, and optionally in its sub-folders too, and returns { items, count, "
            + "truncated } where each item has the file's absolute path, size in bytes and modified time. A glob "
            + "with a / or ** (like **/*.txt or reports/*.csv) matches paths relative to the folder and looks in "
            + "sub-folders. Folders themselves and hidden files (names starting with .) are not listed unless "
            + "asked; symbolic links that lead outside the allowed folders are skipped. Only folders inside the "
            + "allowed folders can be listed.",
        examples: [
            "list the files in {root}", "show the pdf files in this folder", "find all txt files", "find the {glob} files in {root}", "list all {glob} files from {root}", "列出{root}里所有{glob}文件", "列出{root}里所有的{glob}文件", "列出{root}里的{glob}文件",
            "search {root} for files", "look for files in {root}", "list everything in {root}",
            "what files are in {root}", "what's in {root}", "show the files in {root}", "list files matching {glob}", "列出{root}里的文件", "{root}里有什么文件", "查看文件列表",
            "列出这个文件夹里的文件",
        ],
        tags: ["files", "read", "list"],
        kind: .query,
        parameters: .object(
            [
                "root": .string(
                    "The folder to list, absolute or relative to the current directory.", minLength: 1, format: "path",
                    default: "."),
                "glob": .string(
                    "Only files matching this pattern: * and ? within a name, [abc] or [a-z] for one character, "
                        + "** for any number of folders (e.g. *.pdf, **/*.txt, 2024-??-*.csv).",
                    minLength: 1),
                "recursive": .boolean("Also list the files in sub-folders, at any depth.", default: false),
                "include_hidden": .boolean(
                    "Also list hidden files and look in hidden folders (names starting with a dot).", default: false),
                "limit": .integer("At most this many files.", minimum: 1, maximum: maxLimit, default: 1000),
            ],
            required: []),
        output: .object(
            [
                "items": .array(
                    .object(
                        [
                            "path": .string("The file's absolute path.", format: "path"),
                            "size": .integer("Its size in bytes.", minimum: 0),
                            "modified": .string("When it was last changed, in UTC.", format: "date-time"),
                        ],
                        required: ["path", "size", "modified"]),
                    "The files, folder by folder, names in order."),
                "count": .integer("How many files are in items.", minimum: 0),
                "truncated": .boolean("Whether more files matched than the limit allowed."),
            ],
            required: ["items", "count", "truncated"]),
        timeout: 60,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let guardian = environment.pathGuard
        let root = try guardian.check(parameters["root"]?.stringValue ?? ".")
        let glob = parameters["glob"]?.stringValue.map(Glob.init)
        let limit = min(max(parameters["limit"]?.intValue ?? 1000, 1), Self.maxLimit)
        var lister = Lister(
            guardian: guardian, glob: glob,
            recursive: parameters["recursive"]?.boolValue == true || glob?.matchesPaths == true,
            hidden: parameters["include_hidden"]?.boolValue == true, limit: limit)
        switch FileOps.targetKind(root.target) {
        case .directory?: break
        case nil: throw SkillError("there is no folder at '\(root.parameter)'")
        default: throw SkillError("'\(root.parameter)' is not a folder")
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.target) else {
            throw SkillError("cannot read the folder '\(root.parameter)'")
        }
        try lister.walk(root.target, relative: "", names: names)
        return [
            "items": .array(lister.items), "count": .int(lister.items.count), "truncated": .bool(lister.truncated),
        ]
    }

    private struct Lister {
        let guardian: PathGuard
        let glob: Glob?
        let recursive: Bool
        let hidden: Bool
        let limit: Int
        var items: [Value] = []
        var truncated = false

        init(guardian: PathGuard, glob: Glob?, recursive: Bool, hidden: Bool, limit: Int) {
            self.guardian = guardian
            self.glob = glob
            self.recursive = recursive
            self.hidden = hidden
            self.limit = limit
        }

        /// Adds the matching files under `folder` (whose path relative to the root is `relative`);
        /// returns false once the limit is passed.
        @discardableResult
        mutating func walk(_ folder: String, relative: String, names: [String]) throws -> Bool {
            for name in names.sorted() {
                if Task.isCancelled { throw CancellationError() }
                if !hidden, name.hasPrefix(".") { continue }
                let path = FileOps.join(folder, name)
                let relativePath = relative.isEmpty ? name : relative + "/" + name
                var kind = FileOps.kind(path)
                if kind == .symlink {
                    // A link is listed as what it leads to, only inside the allowed folders; linked
                    // folders are not entered (no loops, no second copy of a tree).
                    guard let target = try? PathGuard.resolve(path, followingLastLink: true),
                        guardian.isAllowed(target), FileOps.targetKind(target) == .file
                    else { continue }
                    kind = .file
                }
                switch kind {
                case .directory? where recursive:
                    guard let inner = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
                    guard try walk(path, relative: relativePath, names: inner) else { return false }
                case .file?:
                    if let glob, !glob.matches(glob.matchesPaths ? relativePath : name) { continue }
                    guard items.count < limit else {
                        truncated = true
                        return false
                    }
                    guard let (size, modified) = FileOps.sizeAndModified(path) else { continue }
                    items.append(["path": .string(path), "size": .int(size), "modified": .string(modified.isoText)])
                default:
                    continue
                }
            }
            return true
        }
    }
}
