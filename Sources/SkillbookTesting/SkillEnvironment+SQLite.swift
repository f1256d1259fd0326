public import Foundation
public import SkillbookCore
public import SkillbookSkills
public import SkillbookSQLite
public import SkillbookSystem
import SkillbookSQL

extension SkillEnvironment {
    /// An environment whose stores are the SQLite ones of `stateDirectory` (as the CLI composes
    /// it), for tests.
    public init(
        stateDirectory: URL, currentDirectory: URL? = nil, allowedRoots: [URL]? = nil, clock: any WallClock = SystemClock(),
        ids: IDGenerator = .live, processes: any ProcessRunning = ProcessRunner(),
        http: any HTTPClient = SystemHTTPClient(), notifications: NotificationSink = .standardError,
        executableSearchPath: String? = nil
    ) {
        self.init(
            stateDirectory: stateDirectory, currentDirectory: currentDirectory, allowedRoots: allowedRoots, clock: clock,
            ids: ids, processes: processes, http: http, notifications: notifications,
            executableSearchPath: executableSearchPath, stores: .sqlite(stateDirectory: stateDirectory, clock: clock, ids: ids))
    }

    /// The notes store the skills use, as the SQLite store it is in these tests.
    public func sqliteNotes() throws -> NotesStore {
        guard let store = (try notesStore() as? OffloadedNotes<NotesStore>)?.base else { throw SkillError("the notes store is not the SQLite one") }
        return store
    }

    /// The reminders store the skills use, as the SQLite store it is in these tests.
    public func sqliteReminders() throws -> RemindersStore {
        guard let store = (try remindersStore() as? OffloadedReminders<RemindersStore>)?.base else {
            throw SkillError("the reminders store is not the SQLite one")
        }
        return store
    }
}
