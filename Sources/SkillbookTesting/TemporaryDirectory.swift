public import Foundation

/// A fresh folder under the system's temporary directory, removed when the last reference goes
/// (with everything in it, made writable first, since tests change modes). Its path has symlinks
/// resolved, so it compares equal to the paths the code under test reports.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "skillbook-tests") {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        self.url = url.resolvingSymlinksInPath()
    }

    deinit {
        if let paths = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in paths {
                chmod(url.appendingPathComponent(path).path, 0o755)
            }
        }
        try? FileManager.default.removeItem(at: url)
    }

    public var path: String { url.path }
    /// `state/` inside it, the state directory of CLI runs.
    public var state: URL { url.appendingPathComponent("state") }
    /// `Playbooks/` inside it.
    public var playbooks: URL { url.appendingPathComponent("Playbooks") }

    /// Writes `text` to `name` (a path inside the folder, parents created) and returns the file.
    @discardableResult
    public func write(_ name: String, _ text: String) -> URL {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// Runs `body` with a fresh `TemporaryDirectory`'s folder, removed afterwards.
public func withTemporaryDirectory<T>(
    prefix: String = "skillbook-tests", _ body: (URL) async throws -> T
) async throws -> T {
    let directory = TemporaryDirectory(prefix: prefix)
    defer { withExtendedLifetime(directory) {} }
    return try await body(directory.url)
}
