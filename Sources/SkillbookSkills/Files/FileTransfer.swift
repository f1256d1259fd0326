import Foundation
import SkillbookCore

/// What `files.move` and `files.copy` share: the two shapes of their parameters (`paths` + `into`,
/// or `moves`/`copies` of `{ from, to }`), checking every path before anything changes, creating
/// missing destination folders, undoing a half-done call, and compensation.
struct FileTransfer: Sendable {
    enum Operation: Sendable {
        case move, copy

        var verb: String { self == .move ? "move" : "copy" }
        var past: String { self == .move ? "moved" : "copied" }
        var skillID: String { "files.\(verb)" }
        /// The name of the `{ from, to }` list parameter.
        var pairsName: String { self == .move ? "moves" : "copies" }
    }

    /// The most items one call takes; the engine splits longer lists into batches of this size.
    static let maxItems = 100

    struct Pair: Sendable {
        var from: GuardedPath
        var to: String
    }

    let operation: Operation
    let environment: SkillEnvironment

    // MARK: - Schemas

    static func parameters(_ operation: Operation) -> Schema {
        let verb = operation.verb
        return .object(
            [
                "paths": .array(
                    .string("A file or folder to \(verb).", minLength: 1, format: "path"),
                    "The files and folders to \(verb) into the folder `into`, each keeping its name (at most "
                        + "\(maxItems) per call; longer lists run in batches). Use either paths with into, or "
                        + "\(operation.pairsName).",
                    minItems: 1, maxItems: maxItems),
                "into": .string(
                    "The folder to \(verb) `paths` into; created, with any missing parent folders, when it does not exist.",
                    minLength: 1, format: "path"),
                operation.pairsName: .array(
                    .object(
                        [
                            "from": .string("The file or folder to \(verb).", minLength: 1, format: "path"),
                            "to": .string(
                                "Its new path (not an existing one); missing parent folders are created.", minLength: 1,
                                format: "path"),
                        ],
                        required: ["from", "to"]),
                    "Each file or folder with its own destination path (at most \(maxItems) per call; longer lists "
                        + "run in batches). Use either this or paths with into.",
                    minItems: 1, maxItems: maxItems),
            ],
            required: []
        ).with {
            // Checked before a run: paths goes with into, and either they or the pairs are given.
            $0.dependentRequired = [("paths", ["into"]), ("into", ["paths"])]
            $0.oneOf = [.requiring(["paths"]), .requiring([operation.pairsName])]
        }
    }

    static func output(_ operation: Operation) -> Schema {
        .object(
            [
                operation.past: .array(
                    .object(
                        [
                            "from": .string("Where it was \(operation.past) from (absolute).", format: "path"),
                            "to": .string("Where it was \(operation.past) to (absolute).", format: "path"),
                        ],
                        required: ["from", "to"]),
                    "Every file and folder \(operation.past), in order."),
                "created": .array(
                    .string(format: "path"),
                    "The folders created for the destinations, outermost first (undoing removes them when empty)."),
            ],
            required: [operation.past, "created"])
    }

    // MARK: - Running

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let (pairs, folders) = try plan(parameters)
        try Task.checkCancellation()
        var created: [String] = []
        var done: [Pair] = []
        do {
            for folder in folders {
                created += try FileOps.makeDirectory(folder, parents: false)
            }
            for (index, pair) in pairs.enumerated() {
                try Task.checkCancellation()
                switch operation {
                case .move:
                    try FileOps.move(pair.from.path, to: pair.to)
                case .copy:
                    do {
                        try FileOps.copy(pair.from.target, to: pair.to, preservingTimes: false)
                    } catch {
                        try? FileOps.remove(pair.to)  // a folder copied in part
                        throw error
                    }
                }
                done.append(pair)
                context.progress(index + 1, pairs.count)
            }
        } catch {
            // Nothing half-done: put back what this call already did.
            for pair in done.reversed() {
                switch operation {
                case .move: try? FileOps.move(pair.to, to: pair.from.path)
                case .copy: try? FileOps.remove(pair.to)
                }
            }
            _ = try? FileOps.removeCreatedFolders(created)
            throw error
        }
        let items = done.map { pair -> Value in ["from": .string(pair.from.path), "to": .string(pair.to)] }
        return [operation.past: .array(items), "created": .array(created.map(Value.string))]
    }

    /// The pairs to move or copy and the folders to create first (outermost first), after checking
    /// every path; throws before anything changes.
    func plan(_ parameters: ValueObject) throws(SkillError) -> ([Pair], [String]) {
        let id = operation.skillID
        let guardian = environment.pathGuard
        let paths = parameters["paths"].flatMap { $0.isNull ? nil : $0 }
        let into = parameters["into"].flatMap { $0.isNull ? nil : $0 }
        let pairsValue = parameters[operation.pairsName].flatMap { $0.isNull ? nil : $0 }
        let shape = "give either paths with into, or \(operation.pairsName) (a list of { from, to })"
        var requested: [(from: String, to: String?)] = []
        var intoFolder: GuardedPath?
        switch (paths, into, pairsValue) {
        case (let paths?, let into?, nil):
            guard let items = paths.arrayValue, let folder = into.stringValue else {
                throw SkillError("\(id): paths must be a list of paths and into a folder path")
            }
            for item in items {
                guard let path = item.stringValue else { throw SkillError("\(id): paths must be a list of paths") }
                requested.append((path, nil))
            }
            intoFolder = try guardian.checkChangeable(folder)
        case (nil, nil, let pairs?):
            guard let items = pairs.arrayValue else {
                throw SkillError("\(id): \(operation.pairsName) must be a list of { from, to }")
            }
            for item in items {
                guard let from = item["from"]?.stringValue, let to = item["to"]?.stringValue else {
                    throw SkillError("\(id): each of \(operation.pairsName) needs from and to (paths)")
                }
                requested.append((from, to))
            }
        case (_?, nil, nil):
            throw SkillError("\(id): paths needs into, the folder to \(operation.verb) them into")
        case (nil, _?, nil):
            throw SkillError("\(id): into needs paths, the files and folders to \(operation.verb)")
        case (nil, nil, nil):
            throw SkillError("\(id): nothing to \(operation.verb); \(shape)")
        default:
            throw SkillError("\(id): \(shape), not both")
        }
        guard !requested.isEmpty, requested.count <= Self.maxItems else {
            throw SkillError("\(id) takes 1 to \(Self.maxItems) items per call, got \(requested.count)")
        }
        if let intoFolder, FileOps.exists(intoFolder.path), FileOps.targetKind(intoFolder.target) != .directory {
            throw SkillError("\(id): into '\(intoFolder.parameter)' is not a folder")
        }

        var pairs: [Pair] = []
        for (fromText, toText) in requested {
            let from =
                operation == .move
                ? try guardian.checkChangeable(fromText, removing: true) : try guardian.check(fromText)
            guard FileOps.exists(from.path) else { throw SkillError("there is nothing at '\(fromText)'") }
            if operation == .copy, !FileOps.exists(from.target) {
                throw SkillError("'\(fromText)' is a symbolic link that leads nowhere")
            }
            let to: GuardedPath
            if let toText {
                to = try guardian.checkChangeable(toText)
            } else {
                let folder = intoFolder!
                to = try guardian.checkChangeable(FileOps.join(folder.target, from.name))
            }
            guard !FileOps.exists(to.path) else {
                throw SkillError(
                    "cannot \(operation.verb) '\(fromText)' to '\(to.path)': something is already there "
                        + "(\(id) never overwrites)")
            }
            if FileOps.isInside(to.path, from.path) || FileOps.isInside(to.path, from.target) {
                throw SkillError("cannot \(operation.verb) the folder '\(fromText)' into itself ('\(to.path)')")
            }
            pairs.append(Pair(from: from, to: to.path))
        }
        for (index, pair) in pairs.enumerated() {
            for other in pairs[..<index] {
                if other.to == pair.to {
                    throw SkillError(
                        "\(id): '\(other.from.parameter)' and '\(pair.from.parameter)' would both go to '\(pair.to)'")
                }
                if FileOps.isInside(pair.from.path, other.from.path) || FileOps.isInside(other.from.path, pair.from.path)
                {
                    throw SkillError(
                        "\(id): '\(other.from.parameter)' and '\(pair.from.parameter)' overlap (one is, or is inside, "
                            + "the other); give each file or folder once")
                }
            }
        }
        // Folders to create: the missing ancestors of every destination, each inside the allowed folders.
        var folders: [String] = []
        for pair in pairs {
            var missing: [String] = []
            var folder = FileOps.parent(pair.to)
            while !FileOps.exists(folder) {
                missing.append(folder)
                let up = FileOps.parent(folder)
                if up == folder { break }
                folder = up
            }
            if FileOps.exists(folder), FileOps.targetKind(folder) != .directory {
                throw SkillError("cannot \(operation.verb) to '\(pair.to)': '\(folder)' is not a folder")
            }
            for folder in missing.reversed() where !folders.contains(folder) {
                guard guardian.isAllowed(folder) else {
                    throw SkillError(
                        "cannot \(operation.verb) to '\(pair.to)': it would need the folder '\(folder)', which is "
                            + "outside the allowed folders (\(guardian.roots.joined(separator: ", ")))")
                }
                folders.append(folder)
            }
        }
        return (pairs, folders.sorted { $0.count < $1.count })
    }

    // MARK: - Compensation

    /// Moves everything back (in reverse order) or removes the copies, then removes the folders the
    /// call created when they are empty. Everything is checked before anything changes; parts
    /// already undone are skipped, so it is safe to retry.
    func compensate(_ call: CompletedCall) throws(SkillError) {
        let id = operation.skillID
        guard let items = call.output[operation.past]?.arrayValue, let folderValues = call.output["created"]?.arrayValue
        else { throw SkillError("cannot undo \(id): its output has no \(operation.past) and created lists") }
        let guardian = environment.pathGuard
        var undo: [(from: String, to: String)] = []
        for (index, item) in items.enumerated() {
            guard let from = item["from"]?.stringValue, let to = item["to"]?.stringValue else {
                throw SkillError("cannot undo \(id): item \(index) of \(operation.past) has no from and to")
            }
            let fromPath = try guardian.checkRecorded(from).path
            let toPath = try guardian.checkRecorded(to).path
            switch operation {
            case .move:
                switch (FileOps.exists(fromPath), FileOps.exists(toPath)) {
                case (false, true): undo.append((fromPath, toPath))
                case (true, false): continue  // already moved back
                case (true, true):
                    throw SkillError("cannot move '\(toPath)' back to '\(fromPath)': something is there now")
                case (false, false):
                    throw SkillError("cannot move '\(toPath)' back to '\(fromPath)': it is no longer there")
                }
            case .copy:
                if FileOps.exists(toPath) { undo.append((fromPath, toPath)) }
            }
        }
        var folders: [String] = []
        for value in folderValues {
            guard let folder = value.stringValue else { throw SkillError("cannot undo \(id): created holds a non-path") }
            folders.append(try guardian.checkRecorded(folder).path)
        }
        for pair in undo.reversed() {
            switch operation {
            case .move: try FileOps.move(pair.to, to: pair.from)
            case .copy: try FileOps.remove(pair.to)
            }
        }
        let kept = try FileOps.removeCreatedFolders(folders)
        if !kept.isEmpty {
            throw SkillError(
                "\(id) was undone, except that the folder\(kept.count == 1 ? "" : "s") "
                    + kept.map { "'\($0)'" }.joined(separator: ", ")
                    + " it created \(kept.count == 1 ? "is" : "are") not empty now and \(kept.count == 1 ? "was" : "were") left")
        }
    }
}
