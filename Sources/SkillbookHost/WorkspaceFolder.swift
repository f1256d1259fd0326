public import Foundation

/// The workspace of a playbook file: the one `WorkspaceConfiguration.find` finds from the file's
/// own folder upward (as git finds `.git`); a file outside any workspace belongs to its own folder.
/// A run sees it as `run.workspace`, so a playbook can name files of its workspace whatever the
/// current folder is.
public enum WorkspaceFolder {
    public static func of(playbookFile file: URL) -> URL {
        let start = file.deletingLastPathComponent().standardizedFileURL
        return WorkspaceConfiguration.find(from: start) ?? start
    }

    /// The workspace of a recorded run: its file's, else `fallback`.
    static func of(recordedFile path: String?, fallback: URL) -> URL {
        path.map { of(playbookFile: URL(fileURLWithPath: $0)) } ?? fallback
    }
}
