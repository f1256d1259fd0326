import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime

/// How approval requests read on the terminal: the list of `skillbook approvals`, the question of
/// `skillbook approve`, and what `run` says when its run waits.
enum ApprovalText {
    /// What a waiting run's user can do, printed by `run` (and `resume`) as it exits 4.
    static func howToDecide(_ request: ApprovalRequest) -> String {
        let id = JournalText.shortID(request.runID)
        let commands = [
            ("skillbook approvals", "lists what waits"),
            ("skillbook approve \(id)", "approves it: the run goes on from that step"),
            ("skillbook decline \(id)", "declines it: the step fails and the run rolls back"),
        ]
        let width = commands.map(\.0.count).max() ?? 0
        let lines = commands.map { "  \($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }
        return "skillbook: run \(request.runID) waits for an approval at step '\(request.step)' "
            + "(\(request.skill): \(touches(request)))\n" + lines.joined(separator: "\n")
            + "\nit expires at \(JournalText.localTime(request.expires)); then it counts as declined"
    }

    /// `3 notes: Groceries, Trip, …` or the parameters, on one line.
    static func touches(_ request: ApprovalRequest, limit: Int = 3) -> String {
        if let preview = request.touches {
            let shown = preview.items.prefix(limit).joined(separator: ", ")
            let more = preview.items.count > limit ? ", …" : ""
            return "\(DigitGrouping.grouped(preview.items.count)) \(preview.noun)" + (shown.isEmpty ? "" : ": \(shown)\(more)")
        }
        let parameters = request.parameters.map { "\($0.key)=\(JSONText.encode($0.value))" }.sorted()
        return parameters.prefix(limit).joined(separator: ", ") + (parameters.count > limit ? ", …" : "")
    }

    /// The `Approvals:` section of `runs show` (empty when the run never waited): one line per
    /// request — its step, when it was asked, and who decided what, when and why.
    static func history(_ records: [ApprovalRecord]) -> String {
        guard !records.isEmpty else { return "" }
        let lines = records.map { record in
            let request = record.request
            var line = "  \(request.step)  requested \(JournalText.localTime(request.requested))  "
            if let decision = record.decision {
                let verb = decision.verdict == .expired ? "expired (declined)" : "\(decision.verdict.rawValue) by \(decision.by)"
                line += "\(verb) at \(JournalText.localTime(decision.at))"
                if let reason = decision.reason, decision.verdict != .expired { line += ": \(reason)" }
            } else if record.runStatus == .waiting {
                line += "waits (expires \(JournalText.localTime(request.expires)))"
            } else {
                line += "not decided (the run went on without it)"
            }
            return line
        }
        return "\nApprovals:\n" + lines.joined(separator: "\n") + "\n"
    }

    /// The table of `skillbook approvals`.
    static func table(_ records: [ApprovalRecord], now: Date) -> String {
        guard !records.isEmpty else { return "no run waits for an approval\n" }
        let header = ["RUN", "PLAYBOOK", "STEP", "TOUCHES", "AGE", "EXPIRES"]
        let rows = records.map { record in
            [
                JournalText.shortID(record.request.runID), record.playbook, record.request.step.description,
                touches(record.request), JournalText.duration(now.timeIntervalSince(record.request.requested)),
                "in " + JournalText.duration(max(0, record.request.expires.timeIntervalSince(now))),
            ]
        }
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// The question `approve` asks on a terminal: the same listing as the run's own confirmation.
    static func prompt(_ record: ApprovalRecord) -> String {
        let request = record.request
        let confirmation = ConfirmationRequest(
            step: request.step, skill: request.skill, summary: "", parameters: request.parameters, calls: request.calls,
            title: request.title, touches: request.touches)
        var text = TerminalConfirmer.prompt(confirmation)
        if text.hasSuffix("Run it? [y/N] ") { text.removeLast("Run it? [y/N] ".count) }
        return "Run \(request.runID) (\(record.playbook)) waits at step '\(request.step)'.\n\(text.dropFirst())"
            + "Approve it? [y/N] "
    }
}
