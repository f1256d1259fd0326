import Foundation

/// The OS scheduler's side of `schedule tick`: a crontab line, or a systemd user service and timer,
/// that run `skillbook schedule tick` every minute with absolute workspace and state paths, so
/// cron or systemd and the daemon follow the same rules (and claim fires by the same key).
public struct ScheduleInstall: Sendable {
    /// The `skillbook` executable, absolute.
    public var executable: String
    /// The directory tick runs in, absolute.
    public var workspace: String
    public var playbooks: String
    public var state: String

    public init(executable: String, workspace: String, playbooks: String, state: String) {
        self.executable = executable
        self.workspace = workspace
        self.playbooks = playbooks
        self.state = state
    }

    /// The unit files' base name.
    public static let unitName = "skillbook-tick"

    var arguments: [String] { [executable, "schedule", "tick", "--playbooks", playbooks, "--state", state] }

    /// The tag that marks the line in a crontab (so `--write` replaces it rather than adding one).
    public var crontabTag: String { "# skillbook schedule tick for \(workspace)" }

    /// One crontab line (with its tag comment above): every minute, in the workspace, log appended
    /// to `<state>/tick.log`. Each value is single-quoted for the shell cron runs it with, `%`
    /// escaped (cron turns a bare `%` into a newline).
    public var crontab: String {
        let command = arguments.map(Self.shellQuoted).joined(separator: " ")
        let log = Self.shellQuoted(URL(fileURLWithPath: state).appendingPathComponent("tick.log").path)
        return "\(crontabTag)\n* * * * * cd \(Self.shellQuoted(workspace)) && \(command) >> \(log) 2>&1\n"
    }

    /// `skillbook-tick.service`: one tick, in the workspace.
    public var service: String {
        """
        [Unit]
        Description=Skillbook: start the scheduled playbooks due now (\(Self.systemdEscaped(workspace)))

        [Service]
        Type=oneshot
        WorkingDirectory=\(Self.systemdEscaped(workspace))
        ExecStart=\(arguments.map(Self.systemdQuoted).joined(separator: " "))

        """
    }

    /// `skillbook-tick.timer`: every minute to the second; a minute missed while the machine was off
    /// or asleep runs at once on wake-up (the tick then applies each schedule's catch_up).
    public var timer: String {
        """
        [Unit]
        Description=Skillbook: run 'skillbook schedule tick' every minute

        [Timer]
        OnCalendar=minutely
        AccuracySec=1s
        Persistent=true

        [Install]
        WantedBy=timers.target

        """
    }

    /// `'text'`, with each `'` written as `'\''`, and `%` as `\%` for cron.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "%", with: "\\%") + "'"
    }

    /// A systemd value with `%` doubled (systemd's specifier escape).
    static func systemdEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%%")
    }

    /// A double-quoted ExecStart word: `\` and `"` escaped, `%` doubled, `$` doubled.
    static func systemdQuoted(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        return "\"\(escaped)\""
    }
}
