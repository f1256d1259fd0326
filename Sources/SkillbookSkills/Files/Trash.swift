public import Foundation
import SkillbookCore

/// Skillbook's trash, `<state>/trash`: one folder per call of a file skill that deletes or
/// overwrites (`<time>-<unique>`, time in UTC to the second), holding what an undo puts back.
///
/// A folder is needed only while the journal still holds the run whose undo may use it. `sweep`
/// empties the others once they are older than a grace period (so a call still running in
/// another process, whose output is not recorded yet, keeps its folder).
public struct Trash: Sendable {
    /// The trash folder itself.
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// The trash of a state directory (resolved the way file skills resolve it).
    public init(stateDirectory: URL) {
        self.init(root: PathGuard.trash(of: stateDirectory))
    }

    private static let stampStyle = Date.ISO8601FormatStyle().year().month().day().dateSeparator(.omitted)
        .time(includingFractionalSeconds: false).timeSeparator(.omitted)

    /// A new, empty folder named after `now`.
    func newFolder(now: Date) throws(SkillError) -> String {
        let name = "\(now.formatted(Self.stampStyle))-\(UUID().uuidString.prefix(8).lowercased())"
        _ = try FileOps.makeDirectory(root, parents: true)
        let folder = FileOps.join(root, name)
        _ = try FileOps.makeDirectory(folder, parents: false)
        return folder
    }

    /// When the folder `name` was made, read from its name; `nil` for a name this type did not give.
    static func created(_ name: String) -> Date? {
        guard let dash = name.firstIndex(of: "-") else { return nil }
        return try? stampStyle.parse(String(name[..<dash]))
    }

    /// What a text that mentions a trash folder has right before its name. Not the whole root: as
    /// JSON, a state directory with a quote or a backslash in its path is written escaped.
    public static let marker = "/trash/"

    /// The names of trash folders that `texts` (recorded outputs of calls) mention: whatever
    /// follows `marker` up to the next character that no folder name has. Mentioning more than is
    /// meant only keeps more.
    public func mentioned(in texts: [String]) -> Set<String> {
        var names: Set<String> = []
        for text in texts {
            var rest = text[...]
            while let found = rest.range(of: Self.marker) {
                let name = rest[found.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                if !name.isEmpty { names.insert(String(name)) }
                rest = rest[found.upperBound...]
            }
        }
        return names
    }

    /// Deletes, with everything in them, the trash folders not in `keeping` that were made before
    /// `cutoff`. Anything in the trash that this type did not make is left alone. Returns the names
    /// of the folders deleted; a folder that cannot be deleted is skipped (and tried again next time).
    @discardableResult
    public func sweep(keeping: Set<String>, madeBefore cutoff: Date) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        var deleted: [String] = []
        for name in names.sorted() where !keeping.contains(name) {
            guard let created = Self.created(name), created < cutoff else { continue }
            let folder = FileOps.join(root, name)
            guard FileOps.kind(folder) == .directory else { continue }
            do {
                try FileOps.remove(folder)
                deleted.append(name)
            } catch {
                continue
            }
        }
        return deleted
    }
}
