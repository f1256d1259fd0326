import Foundation
import SkillbookCore
import SkillbookRuntime
import SkillbookStore

/// What `resume` and `rollback` share: finding a recorded run's playbook and asking for approval.
enum JournalCommandSupport {
    /// Checks the playbook text of a recorded run; prints its diagnostics. `nil` when it has errors.
    static func load(
        _ text: String, displayName: String, workspace: Workspace, registry: SkillRegistry, console: Console
    ) -> Playbook? {
        let result = PlaybookLoader(registry: registry, library: workspace.library).load(text, file: displayName)
        DiagnosticPrinter(console: console, sources: [displayName: text]).print(result.diagnostics)
        return result.playbook
    }

    /// `--yes` approves, a terminal asks, anything else refuses (as for `run`).
    static func confirmer(_ arguments: ParsedArguments, console: Console) -> any Confirmer {
        if arguments.flag("yes") { return ApprovingConfirmer() }
        if console.stdinIsTerminal { return TerminalConfirmer(console: console) }
        return RefusingConfirmer()
    }

    /// The calls of a run that started and have no result (their process stopped during them), as
    /// a resume would see them: latest attempt of each call that never completed.
    static func uncertainCalls(_ journal: SQLiteJournal, _ runID: String, registry: SkillRegistry) throws -> [JournalCall] {
        var keys: Set<CallKey> = []
        _ = ResumePlan.from(
            calls: try journal.journaledCalls(of: runID), steps: try journal.journaledSteps(of: runID),
            isReadOnly: isReadOnly(registry)
        ) { call in
            keys.insert(call.key)
            return .rerun
        }
        var latest: [CallKey: JournalCall] = [:]
        for call in try journal.calls(of: runID) where keys.contains(call.key) { latest[call.key] = call }
        return latest.values.sorted { $0.started < $1.started }
    }

    /// Whether a skill is read-only (a query), as resume plans ask.
    static func isReadOnly(_ registry: SkillRegistry) -> (_ skill: String) -> Bool {
        { skill in registry[skill]?.descriptor.kind == .query }
    }

    /// How a call reads in messages: `many[batch 3] (notes.create_many), started 2026-05-01 09:00:01`.
    static func describe(_ call: JournalCall) -> String {
        "\(call.key) (\(call.skill)), started \(JournalText.localTime(call.started))"
    }
}
