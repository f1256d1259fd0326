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

    /// What a rollback will undo (newest first) and what stays done, one call a line.
    static func rollbackPlan(_ preview: RollbackPreview) -> String {
        let run = preview.run
        var text = "Rolling back run \(JournalText.shortID(run.id)) (\(run.playbook), \(run.status.rawValue)):\n"
        for item in preview.undone {
            text += "  undo  \(item.key) (\(item.skill))\(item.byRollbackSteps ? ", by its rollback steps" : "")\n"
        }
        for item in preview.irreversible {
            text += "  keep  \(item.key) (\(item.skill)): skill '\(item.skill)' cannot be undone\n"
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
