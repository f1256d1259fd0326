import Foundation
import SkillbookCore
import SkillbookHost

/// What `runs show` says about notifications: those sent about the run, and, for a notification
/// run, the run it reports.
struct NotificationLinks {
    struct Link {
        var record: NotificationRecord
        /// The notification run's status, when it was journaled.
        var status: String?

        var json: Value {
            var object = ValueObject()
            object["event"] = .string(record.event.rawValue)
            object["subject"] = .string(record.subject)
            object["run"] = record.runID.map(Value.string) ?? .null
            object["status"] = status.map(Value.string) ?? .null
            return .object(object)
        }
    }

    var sent: [Link] = []
    var carried: Link?

    static func of(_ runID: String, host: PlaybookHost, journal: any RunJournal) async throws -> NotificationLinks {
        let ledger = try host.openNotificationLedger()
        var links = NotificationLinks()
        let (about, carried) = try await ledger.notifications(ofRun: runID)
        for record in about {
            let status = try await record.runID.asyncMap { try await journal.run($0)?.status.rawValue } ?? nil
            links.sent.append(Link(record: record, status: status))
        }
        links.carried = carried.map { Link(record: $0, status: nil) }
        return links
    }

    /// A `Notifications:` section (empty when there is nothing to say).
    var text: String {
        var lines: [String] = []
        for link in sent {
            let run = link.record.runID.map { "run \(JournalText.shortID($0))" } ?? "not started"
            lines.append("  \(link.record.event.rawValue)  \(run)  \(link.status ?? "not recorded")")
        }
        if let carried {
            let subject = carried.record.subject.hasPrefix("missed:") ? carried.record.subject : "run \(carried.record.subject)"
            lines.append("  notifies \(carried.record.event.rawValue) of \(subject)")
        }
        return lines.isEmpty ? "" : "\nNotifications:\n" + lines.joined(separator: "\n") + "\n"
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
