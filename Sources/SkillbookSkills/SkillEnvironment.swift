public import Foundation
public import SkillbookCore
public import SkillbookSystem

/// What built-in skills share: where state lives, the folders file skills may touch, the clock and
/// id source, how child processes run, the network, where notifications go, and the stores.
///
/// The stores come in through `stores` (the SQLite ones of the state directory are
/// `BuiltinStores.sqlite(stateDirectory:)` in SkillbookSQLite): the first skill that needs one
/// opens it, and later calls (from any task) get the same store.
public struct SkillEnvironment: Sendable {
    public var stateDirectory: URL
    /// What relative paths given to file skills are relative to.
    public var currentDirectory: URL
    /// The folders file skills may read and change (with everything inside them); see `PathGuard`.
    public var allowedRoots: [URL]
    public var clock: any WallClock
    public var ids: IDGenerator
    /// Runs child processes (`shell.run`).
    public var processes: any ProcessRunning
    /// How web skills and webhooks reach the network.
    public var http: any HTTPClient
    /// Where `notify.send` writes its line for people (standard error unless replaced).
    public var notifications: NotificationSink
    /// The `PATH` searched for helper programs such as `notify-send`; `nil` uses this process's.
    public var executableSearchPath: String?
    /// Where notes and reminders are kept.
    public var stores: BuiltinStores

    /// `allowedRoots` defaults to the current directory and the state directory.
    public init(
        stateDirectory: URL, currentDirectory: URL? = nil, allowedRoots: [URL]? = nil, clock: any WallClock = SystemClock(),
        ids: IDGenerator = .live, processes: any ProcessRunning = ProcessRunner(),
        http: any HTTPClient = SystemHTTPClient(), notifications: NotificationSink = .standardError,
        executableSearchPath: String? = nil, stores: BuiltinStores
    ) {
        let currentDirectory =
            currentDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        self.stateDirectory = stateDirectory
        self.currentDirectory = currentDirectory
        self.allowedRoots = allowedRoots ?? [currentDirectory, stateDirectory]
        self.clock = clock
        self.ids = ids
        self.processes = processes
        self.http = http
        self.notifications = notifications
        self.executableSearchPath = executableSearchPath
        self.stores = stores
    }

    /// The notes store, opened on first use.
    ///
    /// Throws a `SkillError` carrying the store's message (which names the file and what to do), so
    /// that the engine reports it as the skill's failure.
    public func notesStore() throws(SkillError) -> any NotesStoring {
        do {
            return try stores.notes()
        } catch let error as SkillError {
            throw error
        } catch {
            throw SkillError(String(describing: error))
        }
    }

    /// The reminders store, opened on first use; fails like `notesStore()`.
    public func remindersStore() throws(SkillError) -> any RemindersStoring {
        do {
            return try stores.reminders()
        } catch let error as SkillError {
            throw error
        } catch {
            throw SkillError(String(describing: error))
        }
    }
}

extension SkillError {
    /// Runs a store operation, reporting a store's failure as the skill's (with the store's message).
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw reported(error)
        }
    }

    /// A store's failure as the skill's; cancellation and skill errors pass unchanged.
    static func reported(_ error: any Error) -> any Error {
        if error is CancellationError || error is SkillError { return error }
        return SkillError(String(describing: error))
    }
}
