public import Foundation

/// Whether a process is gone: no `/proc` entry, or a zombie waiting for its parent (init in a
/// container may be slow to reap what it inherits).
public func processIsGone(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    // `pid (comm) S …`: the state follows the last ')'.
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state == "Z" || state == "X"
}

/// How soon awaiting a stopped command must return, in seconds: far below the 60 s the test
/// commands would otherwise take, with room for a machine whose two cores run the whole suite at
/// once (which can keep an awaiting task from resuming for seconds). How soon the command itself
/// died is checked exactly with `ProcessResult.duration`.
public let promptly: TimeInterval = 40

/// Writes an executable script (with its own shebang line) and returns its path.
@discardableResult
public func writeScript(_ name: String, in directory: URL, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url.path
}
