import Foundation

/// A workspace folder of a bench whose workers find their playbooks by name.
enum BenchWorkspace {
    /// Writes `text` as `folder/Playbooks/NAME.yaml`, making the folders it needs; returns the file.
    static func write(_ text: String, named name: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("Playbooks/\(name).yaml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
