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
                "skillbook: note: the recorded output of \(keys.map(\.description).joined(separator: ", ")) held a secret and was kept "
                    + "masked; it is not run again (it has effects), so later steps, and its undo if the run rolls back, see *** "
                    + "where the secret was")
        case .maskedOutputs(let keys, rollingBack: true):
            console.err(
                "skillbook: note: the recorded output of \(keys.map(\.description).joined(separator: ", ")) held a secret and was kept "
                    + "masked; undoing works from that record, so what it puts back shows *** where the secret was")
        }
    }
}
