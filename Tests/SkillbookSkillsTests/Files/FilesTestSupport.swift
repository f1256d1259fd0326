import SkillbookTesting
import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookSQLite
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary tree for file skills: `work/` (the current directory and an allowed folder),
/// `state/` (the state directory, also allowed) and `outside/` (not allowed), all removed afterwards.
struct FilesHarness {
    let base: URL
    let work: URL
    let state: URL
    let outside: URL
    let harness: Harness

    var environment: SkillEnvironment { harness.environment }
    var context: SkillContext { harness.context }

    /// The allowed folders as the refusal message lists them.
    var rootsText: String { "\(work.path), \(state.path)" }

    func run(_ id: String, _ parameters: Value) async throws -> Value {
        try await harness.run(id, parameters)
    }

    func compensate(_ id: String, _ parameters: Value, _ output: Value) async throws {
        try await harness.skill(id).compensate(
            CompletedCall(parameters: params(parameters), output: output), context: harness.context)
    }

    /// The absolute path of `relative` under `work/`.
    func path(_ relative: String) -> String {
        work.appendingPathComponent(relative).path
    }

    // MARK: - Making things

    /// Writes `content` to `relative` (under the base folder), creating folders as needed.
    @discardableResult
    func file(_ relative: String, _ content: String = "", in folder: URL? = nil) throws -> URL {
        try file(relative, bytes: Array(content.utf8), in: folder)
    }

    @discardableResult
    func file(_ relative: String, bytes: [UInt8], in folder: URL? = nil) throws -> URL {
        let url = (folder ?? work).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }

    func folder(_ relative: String, in folder: URL? = nil) throws {
        try FileManager.default.createDirectory(
            at: (folder ?? work).appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    /// A symbolic link at `relative` (under `work/`) whose content is `destination`.
    func link(_ relative: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: work.appendingPathComponent(relative).path, withDestinationPath: destination)
    }

    func bytes(_ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(relative)).map(Array.init)
    }

    func text(_ relative: String) -> String? {
        bytes(relative).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ relative: String) -> Bool {
        var info = stat()
        return lstat(path(relative), &info) == 0
    }

    /// Sets the permissions and modification time of `relative` under `work/`.
    func setAttributes(_ relative: String, mode: Int, modified: Date) throws {
        try FileManager.default.setAttributes(
            [.posixPermissions: mode, .modificationDate: modified], ofItemAtPath: path(relative))
    }

    // MARK: - Snapshots

    /// One entry of a snapshot: what it is, its modes, times and content.
    struct Entry: Hashable, CustomStringConvertible {
        var kind: String
        var mode: UInt32
        var modified: Int  // nanoseconds
        var content: [UInt8]

        var description: String { "\(kind) \(String(mode, radix: 8)) \(modified) \(content.count)B" }
    }

    /// Everything under `folder` (default: the whole temporary tree), by path relative to it:
    /// kind, modes, modification time and content (a link's destination). A folder's modification
    /// time changes whenever something in it is added or removed, even when put back: compare it only
    /// when `folderTimes`.
    func snapshot(of folder: URL? = nil, folderTimes: Bool = true) -> [String: Entry] {
        let root = (folder ?? base).path
        var entries: [String: Entry] = [:]
        func visit(_ path: String, _ relative: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            let kindBits = info.st_mode & 0o170000
            let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
            let mode = UInt32(info.st_mode & 0o7777)
            switch kindBits {
            case 0o040000:
                entries[relative] = Entry(kind: "folder", mode: mode, modified: folderTimes ? modified : 0, content: [])
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names { visit(path + "/" + name, relative.isEmpty ? name : relative + "/" + name) }
            case 0o120000:
                let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                entries[relative] = Entry(kind: "link", mode: 0, modified: 0, content: Array(destination.utf8))
            case 0o100000:
                let content = FileManager.default.contents(atPath: path).map(Array.init) ?? []
                entries[relative] = Entry(kind: "file", mode: mode, modified: modified, content: content)
            default:  // a pipe or device: never opened
                entries[relative] = Entry(kind: "other", mode: mode, modified: modified, content: [])
            }
        }
        visit(root, "")
        return entries
    }

    /// The differences between two snapshots, for readable failures.
    static func differences(_ before: [String: Entry], _ after: [String: Entry]) -> [String] {
        Set(before.keys).union(after.keys).sorted().compactMap { key in
            let old = before[key]
            let new = after[key]
            guard old != new else { return nil }
            return "\(key): \(old.map(String.init(describing:)) ?? "absent") → \(new.map(String.init(describing:)) ?? "absent")"
        }
    }
}

func withFiles<T>(_ body: (FilesHarness) async throws -> T) async throws -> T {
    let temporary = TemporaryDirectory(prefix: "skillbook-files-tests")
    defer { withExtendedLifetime(temporary) {} }
    let base = temporary.url
    let work = base.appendingPathComponent("work", isDirectory: true)
    let state = base.appendingPathComponent("state", isDirectory: true)
    let outside = base.appendingPathComponent("outside", isDirectory: true)
    for folder in [work, state, outside] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let environment = SkillEnvironment(stateDirectory: state, currentDirectory: work)
    let registry = try SkillRegistry(BuiltinSkills.all(environment: environment))
    let harness = Harness(directory: state, environment: environment, registry: registry)
    return try await body(FilesHarness(base: base, work: work, state: state, outside: outside, harness: harness))
}

/// Runs `body`, expecting it to fail with exactly `message`.
func expectFailure(
    _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected the error: \(message)", sourceLocation: sourceLocation)
    } catch let error as SkillError {
        #expect(error.message == message, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a SkillError, got \(error)", sourceLocation: sourceLocation)
    }
}
