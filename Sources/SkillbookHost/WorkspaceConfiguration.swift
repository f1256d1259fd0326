public import Foundation
public import SkillbookCore

/// The model a workspace's agent talks to (`model:` of `skillbook.yaml`), as a plain value. The key
/// itself is never in the file: only the name of the environment variable holding it.
public struct WorkspaceModel: Sendable, Hashable {
    /// The base address of an OpenAI-compatible API (`…/v1`).
    public var url: String?
    /// The model's name, as the API knows it.
    public var name: String?
    /// The environment variable that holds the API key (default `SKILLBOOK_API_KEY`).
    public var apiKeyEnvironment: String

    public init(url: String? = nil, name: String? = nil, apiKeyEnvironment: String = "SKILLBOOK_API_KEY") {
        self.url = url
        self.name = name
        self.apiKeyEnvironment = apiKeyEnvironment
    }
}

/// A workspace: the folder holding `Playbooks/` (and `Skills/`, and optionally `skillbook.yaml`),
/// found from a starting folder upward as git finds `.git`, with the defaults its
/// `skillbook.yaml` sets. Relative paths in the file are taken inside the workspace.
///
/// `skillbook.yaml` (every key optional; an unknown one is an error with a suggestion):
///
///     state: .skillbook            # the state directory
///     allow_paths: [~/Documents]   # more folders file skills may touch
///     timezone: Europe/Berlin      # IANA zone of relative dates and today()
///     model: { url: http://127.0.0.1:8080/v1, name: qwen3, api_key_env: MY_KEY }
///     console_url: https://skillbook.example.org   # links in notifications (`run.link`)
///     notify: { failure: [ … steps … ] }          # for playbooks that do not map the event
///     secrets: { smtp: { command: [pass, show, mail/smtp] }, token: { env: API_TOKEN } }
public struct WorkspaceConfiguration: Sendable {
    public static let fileName = "skillbook.yaml"
    public static let keys = ["state", "allow_paths", "timezone", "model", "retention", "console_url", "notify", "secrets"]
    public static let modelKeys = ["url", "name", "api_key_env"]

    /// The workspace folder.
    public var root: URL
    /// Its `skillbook.yaml`, when it has one.
    public var file: URL?
    public var state: URL?
    public var allowedPaths: [URL] = []
    public var timeZone: TimeZone?
    public var model: WorkspaceModel?
    /// The console's address as people open it (`skillbook serve --public-url`): notifications
    /// link runs as `<console_url>/runs/<id>`.
    public var consoleURL: String?
    /// `notify:`: the events every playbook notifies unless it maps them itself.
    public var notify: [NotifyRule] = []
    /// `retention: { days, max_runs }`: how long the journal keeps runs (see `RetentionPolicy`).
    public var retention: PlaybookRetention?
    /// `secrets:`: name → provider (`{ env: NAME }`, `{ file: PATH }`, `{ command: [ARGV…] }`).
    public var secrets: [SecretDeclaration] = []

    public init(root: URL) {
        self.root = root
    }

    /// The nearest folder at or above `directory` that holds `Playbooks/` or `skillbook.yaml`; `nil` when none does.
    public static func find(from directory: URL) -> URL? {
        var current = directory.standardizedFileURL
        while true {
            if HostConfiguration.isDirectory(current.appendingPathComponent("Playbooks"))
                || FileManager.default.fileExists(atPath: current.appendingPathComponent(fileName).path)
            {
                return current
            }
            let parent = current.deletingLastPathComponent().standardizedFileURL
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// The workspace at `root`, with its `skillbook.yaml` read when there is one (`display` names
    /// the file in diagnostics; `home` is what `~/` in its paths means). Throws
    /// `invalidConfiguration` with every problem of the file.
    public static func load(
        root: URL, home: String = HostConfiguration.home(ProcessInfo.processInfo.environment), display: (URL) -> String = { $0.path }
    ) throws(HostError) -> WorkspaceConfiguration {
        var workspace = WorkspaceConfiguration(root: root)
        let url = root.appendingPathComponent(fileName)
        let name = display(url)
        let read: Data?
        do {
            read = try SourceFile.contents(url.path, display: name)
        } catch {
            throw .invalidConfiguration(diagnostics: [error.diagnostic], sources: [:])
        }
        guard let data = read else { return workspace }
        workspace.file = url
        let (text, problem) = SourceText.decode(data, file: name)
        if let problem { throw .invalidConfiguration(diagnostics: [problem], sources: [name: text]) }
        var reader = WorkspaceFileReader(root: root, home: home)
        do {
            if let node = try YAMLLoader().load(text, file: name) { reader.read(node, into: &workspace) }
        } catch {
            throw .invalidConfiguration(diagnostics: error.diagnostics, sources: [name: text])
        }
        if reader.diagnostics.hasErrors { throw .invalidConfiguration(diagnostics: reader.diagnostics, sources: [name: text]) }
        return workspace
    }
}

/// Reads the keys of `skillbook.yaml`, collecting every problem.
struct WorkspaceFileReader {
    let root: URL
    /// What `~` stands for in a path (`$HOME`).
    let home: String
    var diagnostics: [Diagnostic] = []

    mutating func read(_ node: YAMLNode, into workspace: inout WorkspaceConfiguration) {
        guard let pairs = node.mapping else {
            error("skillbook.yaml must be a mapping of settings (\(WorkspaceConfiguration.keys.joined(separator: ", "))), not a \(node.kindName)", node)
            return
        }
        for pair in pairs {
            let key = pair.key.scalar ?? ""
            let value = pair.value
            switch key {
            case "state": workspace.state = path(value, "state")
            case "allow_paths":
                guard let items = value.sequence else {
                    error("'allow_paths' must be a list of folders, not a \(value.kindName)", value)
                    continue
                }
                workspace.allowedPaths = items.compactMap { path($0, "allow_paths") }
            case "timezone":
                guard let name = string(value, "timezone") else { continue }
                if let zone = TimeZone(identifier: name) {
                    workspace.timeZone = zone
                } else {
                    let suggestion = Suggestion.timeZone(for: name)
                    error("unknown time zone '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? " (an IANA name such as Europe/Berlin)"), value)
                }
            case "model": workspace.model = model(value)
            case "console_url":
                guard let text = string(value, "console_url") else { continue }
                if let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil {
                    workspace.consoleURL = text.hasSuffix("/") ? String(text.dropLast()) : text
                } else {
                    error("'console_url' must be an http or https address, got '\(text)'", value)
                }
            case "notify": workspace.notify = PlaybookDecoder().decodeNotify(value, diagnostics: &diagnostics)
            case "retention":
                var fields = YAMLFieldReader()
                workspace.retention = fields.retention(value)
                diagnostics += fields.diagnostics
            case "secrets": workspace.secrets = secrets(value)
            default: unknown(pair.key, among: WorkspaceConfiguration.keys)
            }
        }
    }

    private mutating func model(_ node: YAMLNode) -> WorkspaceModel? {
        guard let pairs = node.mapping else {
            error("'model' must be a mapping (\(WorkspaceConfiguration.modelKeys.joined(separator: ", ")))", node)
            return nil
        }
        var settings = WorkspaceModel()
        for pair in pairs {
            switch pair.key.scalar ?? "" {
            case "url":
                guard let text = string(pair.value, "model.url") else { continue }
                if let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") {
                    settings.url = text
                } else {
                    error("'model.url' must be an http or https address, got '\(text)'", pair.value)
                }
            case "name": settings.name = string(pair.value, "model.name")
            case "api_key_env": if let name = string(pair.value, "model.api_key_env") { settings.apiKeyEnvironment = name }
            default: unknown(pair.key, among: WorkspaceConfiguration.modelKeys, in: "model")
            }
        }
        return settings
    }

    mutating func string(_ node: YAMLNode, _ key: String) -> String? {
        guard let text = node.scalar, !text.isEmpty, node.mapping == nil else {
            error("'\(key)' must be a non-empty string, not a \(node.kindName)", node)
            return nil
        }
        return text
    }

    /// A folder: `~/` is the home folder, a relative path is taken inside the workspace.
    private mutating func path(_ node: YAMLNode, _ key: String) -> URL? {
        guard let text = string(node, key) else { return nil }
        let expanded = HostConfiguration.expandingHome(text, home: home)
        return HostConfiguration.resolve(expanded, against: root)
    }

    mutating func unknown(_ key: YAMLNode, among known: [String], in parent: String? = nil) {
        let name = key.scalar ?? key.kindName
        let suggestion = Suggestion.closest(to: name, in: known).map { "; did you mean '\($0)'?" } ?? ""
        diagnostics.append(
            .error(
                "unknown key '\(name)'\(parent.map { " in '\($0)'" } ?? "") of skillbook.yaml\(suggestion)", at: key.location,
                hint: suggestion.isEmpty ? "the keys are \(known.joined(separator: ", "))" : nil))
    }

    mutating func error(_ message: String, _ node: YAMLNode) {
        diagnostics.append(.error(message, at: node.location))
    }
}
