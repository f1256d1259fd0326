public import SkillbookCore

/// Why a host refused or could not do what it was asked. Each case states a fact; what the user
/// can do about it (a flag to pass, a command to run) is the front end's to say.
public enum HostError: Error, Sendable {
    // Workspace
    /// A skills folder of the configuration does not exist (`path` relative to the current directory when inside it).
    case missingSkillsFolder(path: String)
    /// Manifest skills with errors (warnings are in `diagnostics` too); `sources` maps file names to their text.
    case invalidManifests(diagnostics: [Diagnostic], sources: [String: String])
    /// No playbook of that name in the playbooks folder: `suggestion` is the closest name, `available` every name.
    case playbookNotFound(name: String, folder: String, suggestion: String?, available: [String])
    /// A playbook named where there is no playbooks folder (no workspace here, no `--playbooks`).
    case noPlaybooksFolder(name: String, folder: String)
    /// No skill with that id: `suggestion` is the closest id.
    case skillNotFound(id: String, suggestion: String?)
    /// The workspace's `skillbook.yaml` has errors; `sources` maps its name to its text.
    case invalidConfiguration(diagnostics: [Diagnostic], sources: [String: String])
    /// Not a playbook name (lowercase letters, digits and '-', starting with a letter); `suggestion` is a valid one near it.
    case invalidPlaybookName(name: String, suggestion: String?)
    /// `skillbook new` would overwrite this file.
    case playbookExists(path: String)
    /// A playbook reference that is a path names no file.
    case playbookFileMissing(path: String)
    case playbookUnreadable(file: String)
    /// The playbook has errors; `diagnostics` holds its warnings too.
    case invalidPlaybook(diagnostics: [Diagnostic], sources: [String: String])
    /// Inputs that are not valid (from `InputResolver` or an inputs file), each with its location.
    case invalidInputs(diagnostics: [Diagnostic])
    case inputsFileUnreadable(path: String)

    /// Two skills with one id, or another registry refusal.
    case invalidRegistry(SkillRegistry.RegistryError)
    /// Anything else that stopped the host, as text.
    case failed(message: String)

    // Journal
    /// The state (journal, stores) could not be opened, reached or written: whichever backend's failure.
    case store(any StateFailure)
    /// The journal refused (unknown run, ambiguous prefix, busy run).
    case journal(JournalError)
    /// A live process is running the run.
    case runStillRunning(run: JournalRun, message: String)
    /// The run cannot be resumed in its state.
    case notResumable(run: JournalRun, reason: NotResumable)
    /// The run cannot be rolled back in its state.
    case notUndoable(run: JournalRun, reason: NotUndoable)
    /// Undoing the finished run was not approved (`reason`: declined, or no one could be asked); nothing was undone.
    case rollbackNotApproved(run: JournalRun, reason: String)

    // Resume
    /// The playbook file changed since the run started: resuming would mix two versions.
    case playbookChanged(file: String, runID: String, recordedHash: String, currentHash: String)
    /// The run recorded neither a playbook file nor its text.
    case playbookNotRecorded(runID: String)
    /// The run's playbook file cannot be read and the journal holds no copy.
    case recordedPlaybookUnreadable(file: String, runID: String)
    /// The file now holds another playbook.
    case playbookRenamed(file: String, now: String, runID: String, was: String)
    /// Secret inputs the journal did not keep, to be given again.
    case secretInputsMissing(runID: String, names: [String])
    /// A secret of `secrets:` could not be read from its provider; `reason` names the provider, never a value.
    case secretUnavailable(name: String, reason: String)
    /// A value was given again for an input that is not secret (it resumes as recorded).
    case notASecretInput(name: String, secretInputs: [String])
    /// Calls that started and recorded no result, of skills neither idempotent nor read-only: running
    /// them again could do them twice, and no decision was given.
    case uncertainCalls([JournalCall])
    /// The user chose to abort while deciding about uncertain calls; nothing ran.
    case resumeAborted
    /// The journal changed between planning the resume and taking the run.
    case runChangedWhilePreparing(runID: String)

    // Approvals
    /// This state keeps no approval requests (a journal the backend did not open).
    case approvalsUnavailable

    public enum NotResumable: Sendable, Hashable {
        case finished
        case rolledBack
        case rollbackIncomplete
        /// A rollback of it was under way when it stopped.
        case wasRollingBack
        /// It waits for an approval nobody gave yet (`approve` or `decline` decides, and it goes on).
        case waitsForApproval
    }

    public enum NotUndoable: Sendable, Hashable {
        case alreadyRolledBack
    }
}

extension HostError {
    /// Runs `body`, turning the journal's and the store's errors into host errors.
    static func journaling<T>(_ body: () throws -> T) throws(HostError) -> T {
        do {
            return try body()
        } catch {
            throw HostError(error)
        }
    }

    static func journaling<T>(_ body: () async throws -> T) async throws(HostError) -> T {
        do {
            return try await body()
        } catch {
            throw HostError(error)
        }
    }

    /// Any error thrown under the host as a host error.
    init(_ error: any Error) {
        switch error {
        case let host as HostError: self = host
        case let journal as JournalError: self = .journal(journal)
        case let store as any StateFailure: self = .store(store)
        case let diagnostics as DiagnosticError: self = .invalidInputs(diagnostics: diagnostics.diagnostics)
        case let registry as SkillRegistry.RegistryError: self = .invalidRegistry(registry)
        default: self = .failed(message: "\(error)")
        }
    }
}

extension HostError {
    /// `the secret 'api' could not be read: …` for `secretUnavailable`, else `nil`.
    var secretText: String? {
        guard case .secretUnavailable(let name, let reason) = self else { return nil }
        return "the secret '\(name)' could not be read: \(reason)"
    }
}
