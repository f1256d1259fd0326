import Foundation
import SkillbookHost
import SkillbookRuntime

/// What one invocation of the CLI runs with.
struct Invocation: Sendable {
    var console: Console
    var environment: [String: String]
    var currentDirectory: URL
    /// Whether Ctrl-C and SIGTERM are routed to the running playbook (only in the real process).
    var handlesSignals: Bool
    /// The MCP servers of `mcp:` manifests, shared by every host of this invocation and stopped
    /// when its command ends.
    var mcpServers = MCPServerPool()

    /// The host of the workspace found from `start` (default: this invocation's directory) upward,
    /// with the workspace options (`--playbooks`, `--state`, `--skills`, `--allow-path`) and the
    /// environment over its `skillbook.yaml`. A confirmation makes the run wait for an approval
    /// unless `confirmation` says otherwise.
    func host(
        _ arguments: ParsedArguments, confirmation: ConfirmationPolicy? = nil, from start: URL? = nil, metrics: SkillbookMetrics? = nil
    ) throws(HostError) -> PlaybookHost {
        var configuration = try HostConfiguration.discover(
            from: start, currentDirectory: currentDirectory, environment: environment, playbooks: arguments[.playbooks],
            state: arguments[.state], skills: arguments[.skills], allowedPaths: arguments[.allowPath])
        configuration.confirmation = confirmation ?? Self.noTerminal
        configuration.metrics = metrics
        return PlaybookHost(configuration, mcpServers: mcpServers)
    }

    /// Where to look for the workspace of the playbook `reference`: the workspace a file names in
    /// its first line (`# workspace: PATH`, as `ask --save` writes outside it), else what
    /// `HostConfiguration.searchStart` says (a path's own folder). A named folder that is not a
    /// workspace is a usage error that says which workspace the file needs.
    func workspaceStart(forPlaybook reference: String, command: String) throws -> URL? {
        let start = HostConfiguration.searchStart(forPlaybook: reference, currentDirectory: currentDirectory)
        guard start != nil, let declared = HostConfiguration.declaredWorkspace(ofPlaybookAt: HostConfiguration.resolve(reference, against: currentDirectory))
        else { return start }
        guard WorkspaceConfiguration.find(from: declared)?.path == declared.standardizedFileURL.path else {
            throw UsageError(
                message: "\(reference) needs the workspace \(declared.path) (its first line), which is not a workspace here; "
                    + "run it from that workspace, or change that line", command: command)
        }
        return declared
    }

    /// `--yes` approves, a terminal asks, anything else waits for an approval.
    func confirmation(approveAll: Bool) -> ConfirmationPolicy {
        if approveAll { return .approveAll }
        if console.stdinIsTerminal { return .ask(TerminalConfirmer(console: console)) }
        return Self.noTerminal
    }

    /// Nobody at a terminal (a pipe, cron, the daemon, `schedule tick`, a worker): a confirmation
    /// stops the run, which waits for `skillbook approve` or `decline`.
    static let noTerminal = ConfirmationPolicy.wait

    /// Prints what the host reports while it prepares work. Manifest warnings print only where
    /// `manifestWarnings` (the commands that check things: validate, skills).
    func notices(manifestWarnings: Bool = false) -> HostNoticeHandler {
        let console = console
        return { notice in NoticeText.print(notice, console: console, manifestWarnings: manifestWarnings) }
    }

    /// `-i KEY=VALUE` texts split at the first `=`.
    /// A key given twice is refused: which value was meant is not for the program to guess (a list
    /// is one `-i tags=[a, b]`).
    static func keyValues(_ texts: [String], command: String) throws(UsageError) -> [(key: String, text: String)] {
        var seen: Set<String> = []
        return try texts.map { text throws(UsageError) -> (key: String, text: String) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw UsageError(message: "-i expects KEY=VALUE, got '\(text)'", command: command)
            }
            let key = String(text[..<equals])
            guard seen.insert(key).inserted else {
                throw UsageError(message: "-i \(key) is given more than once; give it once (a list as -i \(key)=[a, b])", command: command)
            }
            return (key, String(text[text.index(after: equals)...]))
        }
    }
}
