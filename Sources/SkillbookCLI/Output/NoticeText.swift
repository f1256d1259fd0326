import SkillbookCore
import SkillbookHost
import SkillbookRuntime

/// How the host's notices read on the terminal.
enum NoticeText {
    static func print(_ notice: HostNotice, console: Console, manifestWarnings: Bool) {
        switch notice {
        case .manifestWarnings(let diagnostics, let sources):
            if manifestWarnings { DiagnosticPrinter(console: console, sources: sources).print(diagnostics) }
        case .diagnostics(let diagnostics, let sources):
            DiagnosticPrinter(console: console, sources: sources).print(diagnostics)
        case .resumingWithRecordedText(let file):
            console.err("skillbook: note: cannot read \(file); resuming with the playbook text recorded when the run started")
        case .resumingChangedFile(let file, let runID):
            console.err(
                "skillbook: warning: \(file) changed since run \(JournalText.shortID(runID)) started; resuming with the file as it is now (--force)")
        case .maskedOutputs(let keys, rollingBack: false):
            console.err(
                "skillbook: note: the recorded output of \(keys.map(\.description).joined(separator: ", ")) held a secret or a long text and "
                    + "was kept masked or cut short; it is not run again (it has effects), so later steps, and its undo if the "
                    + "run rolls back, see *** where the secret was and the cut marker where the text was cut")
        case .maskedOutputs(let keys, rollingBack: true):
            console.err(
                "skillbook: note: the recorded output of \(keys.map(\.description).joined(separator: ", ")) held a secret or a long text and "
                    + "was kept masked or cut short; undoing works from that record, so what it puts back shows *** where the "
                    + "secret was (the fields an undo reads are never cut)")
        case .rollbackPlan(let preview):
            console.writeErr(rollbackPlan(preview))
        }
    }

    /// Consecutive foreach items or batches of one step and skill as one entry: the first item
    /// and `each[item 100000] … each[item 1] (3 items)`, newest first as the preview lists them.
    static func grouped(_ items: [RollbackPreview.Item]) -> [(item: RollbackPreview.Item, keys: String)] {
        var groups: [(first: RollbackPreview.Item, last: RollbackPreview.Item, count: Int)] = []
        for item in items {
            if let open = groups.last, open.count > 0, item.key.iteration != nil || item.key.batch != nil,
                open.first.key.iteration != nil || open.first.key.batch != nil,
                open.first.key.step == item.key.step, open.first.skill == item.skill, open.first.byRollbackSteps == item.byRollbackSteps
            {
                groups[groups.count - 1] = (open.first, item, open.count + 1)
            } else {
                groups.append((item, item, 1))
            }
        }
        return groups.map { group in
            (group.first, group.count == 1 ? "\(group.first.key)" : "\(group.first.key) … \(group.last.key) (\(group.count) items)")
        }
    }

    /// What a rollback will undo (newest first) and what stays done, one call a line (a step's
    /// consecutive items on one).
    static func rollbackPlan(_ preview: RollbackPreview) -> String {
        let run = preview.run
        var text = "Rolling back run \(JournalText.shortID(run.id)) (\(run.playbook), \(run.status.rawValue)):\n"
        for (item, keys) in grouped(preview.undone) {
            text += "  undo  \(keys) (\(item.skill))\(item.byRollbackSteps ? ", by its rollback steps" : "")\n"
        }
        for (item, keys) in grouped(preview.irreversible) {
            text += "  keep  \(keys) (\(item.skill)): skill '\(item.skill)' cannot be undone\n"
        }
        for call in preview.uncertain {
            text += "  keep  \(call.key) (\(call.skill)): its result was never recorded (its process stopped during the call)\n"
        }
        if preview.undone.isEmpty && preview.irreversible.isEmpty && preview.uncertain.isEmpty {
            text += "  nothing to undo (it made no changes)\n"
        }
        return text
    }
}
