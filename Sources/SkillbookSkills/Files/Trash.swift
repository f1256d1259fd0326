public import Foundation
import SkillbookCore

/// Skillbook's trash, `<state>/trash`: one folder per call of a file skill that deletes or
/// overwrites (`<time>-<unique>`, time in UTC to the second), holding what an undo puts back.
///
/// A folder is needed only while the journal still holds the run that made it: a run's calls
/// happen after it started, so a folder made before the oldest run left in the journal started
/// belongs to no run there. `sweep` empties those (once also older than a grace period). It goes
/// by time, not by what recorded outputs say, so a call killed before its output was recorded,
/// or an output whose path had a secret masked in it, never loses its folder while its run is kept.
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

    /// When the folder `name` was made, read from its name; `nil` for a name this type does not give
    /// (`<yyyyMMdd>T<HHmmss>-<8 lowercase hex digits>`).
    static func created(_ name: String) -> Date? {
        guard name.utf8.count == 24, name.wholeMatch(of: /\d{8}T\d{6}-[0-9a-f]{8}/) != nil else { return nil }
        return try? stampStyle.parse(String(name.prefix(15)))
    }

    /// Deletes, with everything in them, the trash folders made before `cutoff` (to the second
    /// their names give). Anything in the trash that this type did not make is left alone. Returns
    /// the names of the folders deleted; a folder that cannot be deleted is skipped (and tried
    /// again next time).
    @discardableResult
    public func sweep(madeBefore cutoff: Date) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        var deleted: [String] = []
        for name in names.sorted() {
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
