import Foundation
import SkillbookCore

/// A path parameter that `PathGuard` accepted.
struct GuardedPath: Sendable, Hashable {
    /// The path as the caller wrote it, for messages.
    var parameter: String
    /// Absolute and normalised, with every symbolic link resolved except a link in the last place:
    /// the entry a move, copy or delete acts on (a link is moved as a link).
    var path: String
    /// Where `path` leads: the same with a link in the last place resolved too. Reads and writes go
    /// here.
    var target: String

    var name: String { FileOps.name(path) }
}

/// Confines file skills to the allowed folders (`SkillEnvironment.allowedRoots`).
///
/// A parameter path is made absolute (relative paths are relative to the environment's current
/// directory; `~` is not expanded — a path starting with `~` is refused rather than read as a
/// folder named `~`), then resolved the way the system would: `.` and `..` are applied and every
/// symbolic link along the part of the path that exists is followed. The result — and, for a path
/// ending in a link, the link itself as well as where it leads — must lie inside an allowed folder
/// (also resolved), or the path is refused. Skills act on the resolved path, never on the text they
/// were given, so what was checked is what is touched.
///
/// File skills also never change Skillbook's own state: the trash folder inside the state
/// directory and the state database, nor move or delete an allowed folder itself.
struct PathGuard: Sendable {
    /// The allowed folders as configured, for messages.
    let roots: [String]
    /// The same, resolved.
    let resolvedRoots: [String]
    let currentDirectory: String
    /// `<state>/trash`, resolved.
    let trash: String
    /// The state directory, resolved: its SQLite files (`*.sqlite` with their `-wal`, `-shm` and
    /// `-journal`) are off limits.
    let state: String

    init(environment: SkillEnvironment) {
        roots = environment.allowedRoots.map { $0.standardizedFileURL.path }
        let resolvedRoots = roots.map { (try? Self.resolve($0, followingLastLink: true)) ?? $0 }
        self.resolvedRoots = resolvedRoots
        currentDirectory = environment.currentDirectory.standardizedFileURL.path
        state = Self.resolvedState(environment.stateDirectory)
        trash = FileOps.join(state, "trash")
    }

    /// The state directory, resolved.
    private static func resolvedState(_ stateDirectory: URL) -> String {
        let path = stateDirectory.standardizedFileURL.path
        return (try? resolve(path, followingLastLink: true)) ?? path
    }

    /// `<state>/trash` of `stateDirectory`, resolved as file skills see it.
    static func trash(of stateDirectory: URL) -> String {
        FileOps.join(resolvedState(stateDirectory), "trash")
    }

    /// `parameter` resolved, or a `SkillError` saying why it is refused.
    func check(_ parameter: String) throws(SkillError) -> GuardedPath {
        guard !parameter.isEmpty else { throw SkillError("a path cannot be empty") }
        guard !parameter.contains("\0") else { throw SkillError("path '\(parameter)' contains a NUL character") }
        if parameter.hasPrefix("~") {
            throw SkillError(
                "path '\(parameter)' starts with '~', which is not expanded; write the full path "
                    + "(or './\(parameter)' for a name that starts with '~')")
        }
        let absolute = parameter.hasPrefix("/") ? parameter : FileOps.join(currentDirectory, parameter)
        let path = try Self.resolve(absolute, followingLastLink: false)
        let target = try Self.resolve(absolute, followingLastLink: true)
        guard isAllowed(path), isAllowed(target) else {
            let lexical = Self.normalise(absolute)
            let reachedThroughLink = roots.contains { FileOps.isInside(lexical, Self.normalise($0)) }
            let how = reachedThroughLink ? "leads through a symbolic link to '\(target)', which is" : "is"
            throw SkillError(
                "path '\(parameter)' \(how) outside the allowed folders (\(roots.joined(separator: ", ")))",
                kind: .disallowedPath)
        }
        return GuardedPath(parameter: parameter, path: path, target: target)
    }

    /// `check`, for a path the call will change (write, create, move, copy to, delete): also refuses
    /// Skillbook's own state and, when `removing`, an allowed folder itself or one that holds one.
    func checkChangeable(_ parameter: String, removing: Bool = false) throws(SkillError) -> GuardedPath {
        let guarded = try check(parameter)
        for path in Set([guarded.path, guarded.target]) {
            let name = FileOps.name(path)
            let isDatabase = FileOps.parent(path) == state
                && ["", "-wal", "-shm", "-journal"].contains { name.hasSuffix(".sqlite" + $0) }
            if FileOps.isInside(path, trash) || isDatabase {
                throw SkillError(
                    "path '\(parameter)' is part of Skillbook's own state (its trash or database); file skills do not change it")
            }
        }
        guard removing else { return guarded }
        if let root = resolvedRoots.first(where: { FileOps.isInside($0, guarded.path) }) {
            let which = root == guarded.path ? "is" : "holds"
            throw SkillError(
                "path '\(parameter)' \(which) one of the allowed folders; file skills do not move or delete it")
        }
        if FileOps.isInside(state, guarded.path) {
            throw SkillError(
                "path '\(parameter)' holds Skillbook's state directory; file skills do not move or delete it")
        }
        return guarded
    }

    /// Checks an absolute path taken from an earlier call's output (for compensation).
    func checkRecorded(_ path: String) throws(SkillError) -> GuardedPath {
        guard path.hasPrefix("/") else { throw SkillError("the recorded path '\(path)' is not absolute") }
        return try check(path)
    }

    func isAllowed(_ resolved: String) -> Bool {
        resolvedRoots.contains { FileOps.isInside(resolved, $0) }
    }

    // MARK: - Resolution

    /// `absolute` with `.`, `..` and symbolic links resolved along the part that exists, like
    /// `realpath(3)`; the part that does not exist yet is kept, normalised. A link in the last place
    /// is followed only when `followingLastLink`.
    static func resolve(_ absolute: String, followingLastLink: Bool) throws(SkillError) -> String {
        var pending = components(absolute).reversed() as [String]
        var resolved: [String] = []
        var firstMissing: Int?
        var links = 0
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." {
                if !resolved.isEmpty { resolved.removeLast() }
                if let missing = firstMissing, resolved.count <= missing { firstMissing = nil }
                continue
            }
            resolved.append(part)
            guard firstMissing == nil else { continue }
            let current = "/" + resolved.joined(separator: "/")
            guard let kind = FileOps.kind(current) else {
                firstMissing = resolved.count - 1
                continue
            }
            guard kind == .symlink, followingLastLink || !pending.isEmpty else { continue }
            links += 1
            guard links <= 40 else {
                throw SkillError("path '\(absolute)' has too many symbolic links (a loop?)")
            }
            let destination: String
            do {
                destination = try FileManager.default.destinationOfSymbolicLink(atPath: current)
            } catch {
                throw SkillError("cannot read the symbolic link '\(current)'")
            }
            resolved.removeLast()
            if destination.hasPrefix("/") { resolved.removeAll() }
            pending.append(contentsOf: components(destination).reversed())
        }
        return "/" + resolved.joined(separator: "/")
    }

    /// `.` and `..` applied to the text alone, ignoring links.
    static func normalise(_ absolute: String) -> String {
        var result: [String] = []
        for part in components(absolute) where part != "." {
            if part == ".." {
                if !result.isEmpty { result.removeLast() }
            } else {
                result.append(part)
            }
        }
        return "/" + result.joined(separator: "/")
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}

extension SkillEnvironment {
    var pathGuard: PathGuard { PathGuard(environment: self) }

    /// A new, empty folder for one call's trash or backups: `<state>/trash/<time>-<unique>`.
    func newTrashFolder() throws(SkillError) -> String {
        try Trash(root: pathGuard.trash).newFolder(now: clock.now())
    }
}
