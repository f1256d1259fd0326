import Foundation

/// One log line of the host's services (`run finished hello run=… status=succeeded`) taken apart:
/// the event (the words before the first `key=value`), the playbook the event names, the fields,
/// and its level.
struct LogLine: Equatable {
    var event: String
    var playbook: String?
    var fields: [(key: String, value: String)]
    var level: Level

    enum Level: String {
        case error, warning, info

        /// The syslog priority journald reads from a `<N>` prefix.
        var priority: Int {
            switch self {
            case .error: 3
            case .warning: 4
            case .info: 6
            }
        }
    }

    static func == (a: LogLine, b: LogLine) -> Bool {
        a.event == b.event && a.playbook == b.playbook && a.level == b.level
            && a.fields.map(\.key) == b.fields.map(\.key) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    /// The events whose next word is a playbook's name.
    static let playbookEvents = ["run finished", "run not started", "run not continued", "run stopped", "fire queued", "claimed", "loaded", "rolling back"]

    /// Events that report trouble the process goes on through.
    static let warningEvents = [
        "fire skipped", "fires dropped", "fire dropped", "lease lost", "run stopped", "run not continued", "rolling back",
        "daemon grace over", "worker grace over", "daemon second signal", "worker second signal", "reload failed", "playbook broken",
        "browser not opened",
    ]

    /// Takes a line apart: a word `key=value` (the key lower-case letters, digits, `_` or `-`)
    /// starts a field, and later words without one belong to that field's value (an `error=`
    /// message has spaces).
    init(_ text: String) {
        var words: [Substring] = []
        var fields: [(key: String, value: String)] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if let equals = word.firstIndex(of: "="), equals != word.startIndex,
                word[..<equals].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == "-") })
            {
                fields.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
            } else if fields.isEmpty {
                words.append(word)
            } else {
                fields[fields.count - 1].value += " " + word
            }
        }
        var event = words.joined(separator: " ")
        var playbook: String?
        if let known = Self.playbookEvents.first(where: { event.hasPrefix($0 + " ") }) {
            let rest = event.dropFirst(known.count + 1)
            let name = rest.prefix { $0 != " " }
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
                playbook = String(name)
                event = known + rest.dropFirst(name.count)
            }
        }
        // `fire started pulse#0@1796233516158 …`: the fire's key names its playbook.
        if playbook == nil, event.hasPrefix("fire "), let key = words.dropFirst(2).first, let hash = key.firstIndex(of: "#"),
            key[..<hash].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        {
            playbook = String(key[..<hash])
            fields.insert(("fire", String(key)), at: 0)
            event = words.prefix(2).joined(separator: " ") + (words.count > 3 ? " " + words.dropFirst(3).joined(separator: " ") : "")
        }
        let status = fields.first { $0.key == "status" }?.value
        var level = Level.info
        if fields.contains(where: { $0.key == "error" }) { level = .error }
        if Self.warningEvents.contains(where: { event.hasPrefix($0) }) { level = .warning }
        if event.hasPrefix("run finished") { level = status == "succeeded" ? .info : .warning }
        self.event = event
        self.playbook = playbook
        self.fields = fields
        self.level = level
    }
}
