/// How the long-running commands write their log lines on stderr.
enum LogFormat: String, CaseIterable, Sendable {
    /// `skillbook: EVENT key=value …`, one line per event.
    case text
    /// One JSON object per line: `time`, `level`, `event`, `message`, `playbook`, `run`, `fields`.
    case json
}
