public import SkillbookCore
import SkillbookRuntime

/// Something a host tells its front end while it prepares work, in the order it happens: warnings
/// that do not stop anything, and notes on how a resume or rollback goes on.
public enum HostNotice: Sendable {
    /// Warnings of loading manifest skills; `sources` maps file names to their text.
    case manifestWarnings([Diagnostic], sources: [String: String])
    /// Warnings of checking a playbook; `sources` maps file names to their text.
    case diagnostics([Diagnostic], sources: [String: String])
    /// The run's playbook file cannot be read; the resume goes on with the text recorded when it started.
    case resumingWithRecordedText(file: String)
    /// The playbook file changed since the run started and the resume was forced: it goes on with the file as it is now.
    case resumingChangedFile(file: String, runID: String)
    /// Recorded outputs that held a secret were kept masked, or a long text the undo does not read was
    /// kept cut. On resume these action calls are not run again, so later steps (and their undo) see the
    /// recorded value; on rollback the undo works from it.
    case maskedOutputs([CallKey], rollingBack: Bool)
    /// What a rollback will undo and what it cannot, before anything is undone (or approval asked).
    case rollbackPlan(RollbackPreview)
}

/// Receives notices; the default drops them.
public typealias HostNoticeHandler = @Sendable (HostNotice) -> Void
