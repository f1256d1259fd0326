public import Foundation
import SkillbookCore

extension HostConfiguration {
    /// The workspace found from `start` (default: `currentDirectory`) upward — the nearest folder
    /// holding `Playbooks/` or `skillbook.yaml` — with its `skillbook.yaml` defaults; each option
    /// given (`playbooks`, `state`, `skills`, `allowedPaths`, relative to `currentDirectory`) and
    /// each environment variable overrides them:
    ///
    /// - playbooks: `playbooks`, else the workspace's `Playbooks`;
    /// - skills: the workspace's `Skills` when it exists, then each of `skills`;
    /// - state: `state`, else `$SKILLBOOK_HOME`, else the file's `state`, else `$XDG_STATE_HOME/skillbook`,
    ///   else `~/.local/state/skillbook`;
    /// - allowed paths: the workspace folder (when it is not the current one), the file's `allow_paths`, then `allowedPaths`;
    /// - time zone: `$TZ` when it names a zone, else the file's `timezone`, else the system's;
    /// - model: `$SKILLBOOK_MODEL_URL` and `$SKILLBOOK_MODEL` over the file's `model`.
    ///
    /// Without a workspace it is `workspace(in:…)` of `currentDirectory`. Throws
    /// `invalidConfiguration` when `skillbook.yaml` has errors.
    public static func discover(
        from start: URL? = nil, currentDirectory: URL, environment: [String: String], playbooks: String? = nil,
        state: String? = nil, skills: [String] = [], allowedPaths: [String] = []
    ) throws(HostError) -> HostConfiguration {
        var configuration = workspace(
            in: currentDirectory, environment: environment, playbooks: playbooks, state: state, skills: skills,
            allowedPaths: allowedPaths)
        guard let root = WorkspaceConfiguration.find(from: start ?? currentDirectory) else {
            configuration.model = try modelSettings(nil, environment: environment)
            return configuration
        }
        let workspace = try WorkspaceConfiguration.load(
            root: root, home: home(environment), display: { PlaybookHost(configuration).displayPath($0) })
        configuration.workspaceRoot = root
        if playbooks?.isEmpty ?? true { configuration.playbooksDirectory = root.appendingPathComponent("Playbooks") }
        var directories: [URL] = []
        let local = root.appendingPathComponent("Skills")
        if isDirectory(local) { directories.append(local) }
        for path in skills {
            let url = resolve(path, against: currentDirectory)
            if !directories.contains(where: { $0.path == url.path }) { directories.append(url) }
        }
        configuration.skillDirectories = directories
        let stateGiven = !(state?.isEmpty ?? true) || !(environment["SKILLBOOK_HOME"]?.isEmpty ?? true)
        if !stateGiven, let folder = workspace.state { configuration.stateDirectory = folder }
        let rootAllowed = root.path == currentDirectory.standardizedFileURL.path ? [] : [root]
        configuration.allowedPaths = rootAllowed + workspace.allowedPaths + configuration.allowedPaths
        if let zone = environment["TZ"].flatMap(TimeZone.init(identifier:)) {
            configuration.timeZone = zone
        } else if let zone = workspace.timeZone {
            configuration.timeZone = zone
        }
        configuration.model = try modelSettings(workspace.model, environment: environment)
        configuration.notifyDefaults = workspace.notify
        configuration.consoleURL = workspace.consoleURL
        if let retention = workspace.retention {
            configuration.retention = RetentionPolicy(
                days: retention.days ?? RetentionPolicy.defaultDays, maxRuns: retention.maxRuns ?? RetentionPolicy.defaultMaxRuns)
        }
        configuration.secrets = workspace.secrets
        return configuration
    }

    /// Where to look for the workspace of a playbook reference: a path's own folder (so
    /// `skillbook run ~/routines/Playbooks/evening.yaml` finds `~/routines` from anywhere); `nil`
    /// for a name, which is looked up from the current directory.
    public static func searchStart(forPlaybook reference: String, currentDirectory: URL) -> URL? {
        guard reference.contains("/") || reference.hasSuffix(".yaml") || reference.hasSuffix(".yml") else { return nil }
        return resolve(reference, against: currentDirectory).deletingLastPathComponent()
    }

    /// The first line of a playbook saved outside the workspace it needs (`ask --save`), before
    /// the workspace's path.
    public static let workspaceComment = "# workspace: "

    /// The workspace a playbook file names in its first line (`# workspace: PATH`), if it does.
    /// A file that is no regular file or over the size limit names none: it is not opened for
    /// reading (a FIFO would block) and the loader says why it is refused.
    public static func declaredWorkspace(ofPlaybookAt file: URL) -> URL? {
        guard let data = try? SourceFile.contents(file.path, display: file.path) else { return nil }
        let line = String(decoding: data.prefix(while: { $0 != UInt8(ascii: "\n") }), as: UTF8.self)
        guard line.hasPrefix(workspaceComment) else { return nil }
        let path = line.dropFirst(workspaceComment.count).trimmingCharacters(in: .whitespaces)
        return path.isEmpty ? nil : URL(fileURLWithPath: path)
    }

    /// The model from the environment (`SKILLBOOK_MODEL_URL`, `SKILLBOOK_MODEL`) over the file's
    /// `model:`, with the key from the variable the file names (default `SKILLBOOK_API_KEY`); `nil`
    /// without an http(s) URL from either.
    ///
    /// A `SKILLBOOK_MODEL_URL` that is not an http(s) address is refused as `model.url` is.
    static func modelSettings(_ file: WorkspaceModel?, environment: [String: String]) throws(HostError) -> ModelSettings? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let text = value("SKILLBOOK_MODEL_URL"), !(URL(string: text).map { ["http", "https"].contains($0.scheme ?? "") } ?? false) {
            let message = "'SKILLBOOK_MODEL_URL' must be an http or https address, got '\(text)'"
            throw .invalidConfiguration(diagnostics: [.error(message, path: "SKILLBOOK_MODEL_URL")], sources: [:])
        }
        guard let text = value("SKILLBOOK_MODEL_URL") ?? file?.url, let url = URL(string: text),
            ["http", "https"].contains(url.scheme ?? "")
        else { return nil }
        return ModelSettings(
            url: url, model: value("SKILLBOOK_MODEL") ?? file?.name, apiKey: value(file?.apiKeyEnvironment ?? "SKILLBOOK_API_KEY"))
    }
}
