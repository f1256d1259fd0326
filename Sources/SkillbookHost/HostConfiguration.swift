public import Foundation
public import SkillbookCore
import SkillbookPostgres

/// Everything a host needs to know, as a plain value: where playbooks, skills and state are, what
/// file skills may touch, the time zone and clock, who approves confirmations, and the process
/// environment. A command line, a daemon, an MCP server or an app each fill one in their own way;
/// nothing here is parsed arguments.
public struct HostConfiguration: Sendable {
    /// Where playbooks are found by name, and sub-playbooks by their `playbook:` reference.
    public var playbooksDirectory: URL
    /// Folders whose `*.yaml` manifests are loaded as skills, in order. Each must exist.
    public var skillDirectories: [URL]
    /// The state directory: the journal and the built-in stores live here.
    public var stateDirectory: URL
    /// Folders file skills may touch besides `currentDirectory` and `stateDirectory`.
    public var allowedPaths: [URL]
    /// The zone relative dates and `today()` are resolved in: the one set, else the machine's,
    /// read on first use (reading it costs ~1 M instructions that `validate` does not need).
    public var timeZone: TimeZone {
        get { chosenTimeZone ?? .current }
        set { chosenTimeZone = newValue }
    }
    private var chosenTimeZone: TimeZone?
    /// The time of runs and records, and every wait (retries, batch pauses).
    public var clock: any WallClock
    /// Run ids; the default makes lower-case UUIDs.
    public var ids: IDGenerator
    /// The journal and the built-in stores; `nil`: SQLite in `stateDirectory`, on `clock`.
    public var persistence: HostPersistence?
    /// How long the journal keeps runs (`retention:` of `skillbook.yaml`); a playbook's own
    /// `retention:` overrides it for its runs.
    public var retention: RetentionPolicy = .standard
    /// The default for confirmations; a single run may pass its own confirmer.
    public var confirmation: ConfirmationPolicy
    /// The environment variables playbooks (`env:`), manifest skills and child processes see.
    public var environment: [String: String]
    /// Relative paths (files given to skills, playbook files) are taken inside this folder.
    public var currentDirectory: URL
    /// How paths read in messages and diagnostics: relative to this folder when inside it
    /// (`nil`: always absolute).
    public var displayBase: URL?
    /// The workspace folder (see `WorkspaceConfiguration`), recorded with each run so that `resume`
    /// and `rollback` load its skills from anywhere; `nil` when none was found.
    public var workspaceRoot: URL?
    /// The model `ask` and `chat` plan with when no playbook or skill matches (the workspace's
    /// `model:`, under `SKILLBOOK_MODEL_URL`, `SKILLBOOK_MODEL`, `SKILLBOOK_API_KEY`); `nil`: none.
    public var model: ModelSettings?
    /// The workspace's `notify:` (`skillbook.yaml`): what a playbook notifies for the events it does
    /// not map itself.
    public var notifyDefaults: [NotifyRule] = []
    /// The console's public address (`console_url:`), for `run.link` in notifications; `nil`: no link.
    public var consoleURL: String?
    /// `secrets:` of the workspace's `skillbook.yaml`: where each secret's value is read from.
    public var secrets: [SecretDeclaration] = []
    /// Where runs are counted for `--metrics` (`nil`: nowhere); see `SkillbookMetrics`.
    public var metrics: SkillbookMetrics?

    public init(
        playbooksDirectory: URL, skillDirectories: [URL] = [], stateDirectory: URL, allowedPaths: [URL] = [],
        timeZone: TimeZone? = nil, clock: any WallClock = SystemClock(), ids: IDGenerator = .live,
        persistence: HostPersistence? = nil,
        confirmation: ConfirmationPolicy = .refuseByDefault, environment: [String: String] = [:],
        currentDirectory: URL, displayBase: URL? = nil, model: ModelSettings? = nil
    ) {
        self.model = model
        self.playbooksDirectory = playbooksDirectory
        self.skillDirectories = skillDirectories
        self.stateDirectory = stateDirectory
        self.allowedPaths = allowedPaths
        self.chosenTimeZone = timeZone
        self.clock = clock
        self.ids = ids
        self.persistence = persistence
        self.confirmation = confirmation
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.displayBase = displayBase
    }

    /// The usual workspace in `currentDirectory`: each `nil` or empty setting takes its default.
    ///
    /// - `playbooks` defaults to `Playbooks`; `state` to `$SKILLBOOK_HOME`, else
    ///   `$XDG_STATE_HOME/skillbook`, else `~/.local/state/skillbook` (see `stateDirectory(_:environment:currentDirectory:)`).
    /// - `Skills` in `currentDirectory` is loaded when it exists, then each of `skills` (which must
    ///   exist: a missing one is reported when the registry is built), without repeats.
    /// - Relative paths are taken inside `currentDirectory`.
    /// - `state` (else `$SKILLBOOK_STATE`) may be a connection string `postgresql://USER@HOST:PORT/DB`:
    ///   the journal, leases, locks, fires and built-in stores are then in that database
    ///   (`persistence`), and the state directory is the default one, for local files only.
    /// - The model comes from `SKILLBOOK_MODEL_URL`, `SKILLBOOK_MODEL`, `SKILLBOOK_API_KEY`.
    public static func workspace(
        in currentDirectory: URL, environment: [String: String], playbooks: String? = nil, state: String? = nil,
        skills: [String] = [], allowedPaths: [String] = []
    ) -> HostConfiguration {
        var directories: [URL] = []
        let local = resolve("Skills", against: currentDirectory)
        if isDirectory(local) { directories.append(local) }
        for path in skills {
            let url = resolve(path, against: currentDirectory)
            if !directories.contains(where: { $0.path == url.path }) { directories.append(url) }
        }
        // A connection string puts the shared state in PostgreSQL; local files (the trash, the
        // daemon's pid file) stay in the default state directory.
        let chosen = state.flatMap { $0.isEmpty ? nil : $0 } ?? environment["SKILLBOOK_STATE"].flatMap { $0.isEmpty ? nil : $0 }
        let database = chosen.flatMap { PostgresState.isConnectionString($0) ? $0 : nil }
        var configuration = HostConfiguration(
            playbooksDirectory: resolve(playbooks.flatMap { $0.isEmpty ? nil : $0 } ?? "Playbooks", against: currentDirectory),
            skillDirectories: directories,
            stateDirectory: stateDirectory(database == nil ? chosen : nil, environment: environment, currentDirectory: currentDirectory),
            allowedPaths: allowedPaths.map { resolve($0, against: currentDirectory) }, environment: environment,
            currentDirectory: currentDirectory, displayBase: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            model: ModelSettings.fromEnvironment(environment))
        if let database { configuration.persistence = .postgres(database, clock: configuration.clock, leases: .from(environment)) }
        return configuration
    }

    /// `option`, else `$SKILLBOOK_HOME`, else `$XDG_STATE_HOME/skillbook`, else
    /// `~/.local/state/skillbook`; empty values count as unset, relative ones are taken inside
    /// `currentDirectory`.
    public static func stateDirectory(_ option: String?, environment: [String: String], currentDirectory: URL) -> URL {
        func url(_ path: String) -> URL { resolve(path, against: currentDirectory) }
        if let option, !option.isEmpty { return url(option) }
        if let home = environment["SKILLBOOK_HOME"], !home.isEmpty { return url(home) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return url(xdg).appendingPathComponent("skillbook") }
        return url(home(environment)).appendingPathComponent(".local/state/skillbook")
    }

    /// The home folder: `$HOME`, or the account's when it is unset or empty.
    public static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// `path` with a leading `~` (alone or before `/`) as `home`; any other path as it is.
    public static func expandingHome(_ path: String, home: String) -> String {
        path == "~" || path.hasPrefix("~/") ? home + path.dropFirst() : path
    }

    /// `path` as an absolute file URL; a relative one is taken inside `directory` (which need not
    /// end in '/': a URL without it would resolve against its parent).
    public static func resolve(_ path: String, against directory: URL) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory.path, isDirectory: true)).standardizedFileURL
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
