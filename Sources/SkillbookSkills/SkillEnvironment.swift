public import Foundation
public import SkillbookStore
public import SkillbookCore

/// What built-in skills share: where state lives, the folders file skills may touch, the clock and
/// id source, how child processes run, and the opened stores.
///
/// Copies share one lazily-opened `NotesStore`: the first skill that needs it opens it, and later
/// calls (from any task) get the same store. A failure to open is not remembered, so a fixed state
/// file is picked up by the next call.
public struct SkillEnvironment: Sendable {
    public var stateDirectory: URL
    /// What relative paths given to file skills are relative to.
    public var currentDirectory: URL
    /// The folders file skills may read and change (with everything inside them); see `PathGuard`.
    public var allowedRoots: [URL]
    public var clock: WallClock
    public var ids: IDGenerator
    /// Runs child processes (`shell.run`).
    public var processes: any ProcessRunning
    private let openedNotes = Locked<NotesStore?>(nil)

    /// `allowedRoots` defaults to the current directory and the state directory.
    public init(
        stateDirectory: URL, currentDirectory: URL? = nil, allowedRoots: [URL]? = nil, clock: WallClock = .live,
        ids: IDGenerator = .live, processes: any ProcessRunning = ProcessRunner()
    ) {
        let currentDirectory =
            currentDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        self.stateDirectory = stateDirectory
        self.currentDirectory = currentDirectory
        self.allowedRoots = allowedRoots ?? [currentDirectory, stateDirectory]
        self.clock = clock
        self.ids = ids
        self.processes = processes
    }

    /// The notes store in `stateDirectory`, opened on first use.
    ///
    /// Throws a `SkillError` carrying the store's message (which names the file and what to do), so
    /// that the engine reports it as the skill's failure.
    public func notesStore() throws(SkillError) -> NotesStore {
        try openedNotes.withLock { (opened) throws(SkillError) in
            let expected = StateDatabase.url(in: stateDirectory).standardizedFileURL
            if let store = opened, store.database.url.standardizedFileURL == expected { return store }
            let store = try SkillError.reporting { () throws(StoreError) in
                try NotesStore(stateDirectory: stateDirectory, clock: clock, ids: ids)
            }
            opened = store
            return store
        }
    }
}

extension SkillError {
    /// Runs a store operation, reporting a `StoreError` as the skill's failure.
    static func reporting<T>(_ body: () throws(StoreError) -> T) throws(SkillError) -> T {
        do {
            return try body()
        } catch {
            throw SkillError(error.message)
        }
    }
}
