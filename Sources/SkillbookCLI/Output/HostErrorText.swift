import SkillbookCore
import SkillbookHost

/// What the CLI says about a host error: the host's fact, with what to do about it on the command
/// line (a flag to pass, a command to run).
enum HostErrorText {
    /// How an error is shown.
    enum Form {
        /// `skillbook: error: MESSAGE` and a pointer to `--help`.
        case usage(String)
        /// `skillbook: error: MESSAGE`.
        case refusal(String)
        /// Printed with their source lines.
        case diagnostics([Diagnostic], sources: [String: String])
        /// `skillbook: error: MESSAGE`, exit code 1: something broke rather than was refused.
        case failure(String)
    }

    static func form(_ error: HostError) -> Form {
        switch error {
        case .missingSkillsFolder(let path): .usage("no skills folder at '\(path)'")
        case .invalidManifests(let diagnostics, let sources), .invalidPlaybook(let diagnostics, let sources),
            .invalidConfiguration(let diagnostics, let sources):
            .diagnostics(diagnostics, sources: sources)
        case .playbookNotFound(let name, let folder, let suggestion, let available):
            .usage(
                "no playbook named '\(name)' in \(folder)"
                    + (suggestion.map { "; did you mean '\($0)'?" }
                        ?? (available.isEmpty ? "" : " (available: \(available.joined(separator: ", ")))")))
        case .noPlaybooksFolder(let name, let folder):
            .usage(
                "no playbook named '\(name)': there is no folder \(folder); a workspace is a folder with Playbooks/ or "
                    + "skillbook.yaml (here or above): run it from its workspace, give its file's path, or pass --playbooks DIR")
        case .skillNotFound(let id, let suggestion):
            .usage("no skill '\(id)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? " (see 'skillbook skills')"))
        case .invalidPlaybookName(let name, let suggestion):
            .usage(
                "'\(name)' is not a playbook name: use lowercase letters, digits and '-', starting with a letter"
                    + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
        case .playbookExists(let path): .refusal("\(path) already exists; nothing was written (pick another name or edit it)")
        case .playbookFileMissing(let path): .usage("no playbook file at '\(path)'")
        case .playbookUnreadable(let file): .usage("cannot read playbook file '\(file)'")
        case .invalidInputs(let diagnostics): .diagnostics(diagnostics, sources: [:])
        case .inputsFileUnreadable(let path): .usage("cannot read inputs file '\(path)'")
        case .invalidRegistry(let error): .refusal("\(error)")
        case .failed(let message): .failure(message)
        case .store(let error): error.isUnusableState ? .refusal(FailureRemedy.explain(error)) : .failure(FailureRemedy.explain(error))
        case .journal(let error): .refusal(error.message)
        case .runStillRunning(_, let message): .refusal(message)
        case .notResumable(let run, let reason): .refusal(notResumable(run, reason))
        case .notUndoable(let run, .alreadyRolledBack): .refusal("run \(run.id) (\(run.playbook)) is already rolled back; nothing to undo")
        case .rollbackNotApproved(let run, let reason):
            .refusal("run \(run.id) (\(run.playbook)) \(run.status.rawValue); undoing it was not approved (\(reason)); nothing was undone")
        case .playbookChanged(let file, let runID, let recorded, let current):
            .refusal(
                "\(file) changed since run \(short(runID)) started (recorded hash \(recorded), now \(current)); "
                    + "resuming would mix two versions of the playbook. Put the file back, pass --force to resume "
                    + "with the file as it is now, or undo the run with 'skillbook rollback \(short(runID))'")
        case .playbookNotRecorded(let runID): .refusal("run \(runID) recorded neither its playbook file nor its text; it cannot be resumed")
        case .recordedPlaybookUnreadable(let file, let runID):
            .refusal("cannot read \(file), the playbook of run \(runID), and the journal has no copy")
        case .playbookRenamed(let file, let now, let runID, let was): .refusal("\(file) is now playbook '\(now)', but run \(runID) ran '\(was)'")
        case .secretInputsMissing(let runID, let names): .usage(secretInputsMissing(runID, names))
        case .secretUnavailable(let name, let reason): .refusal("the secret '\(name)' could not be read: \(reason); nothing was run")
        case .notASecretInput(let name, let secret):
            .usage(
                "input '\(name)' is resumed as recorded; -i only gives secret inputs again "
                    + "(\(secret.isEmpty ? "it has none" : "its secret inputs: \(secret.joined(separator: ", "))"))")
        case .uncertainCalls(let calls): .refusal(uncertain(calls))
        case .resumeAborted: .refusal("resume aborted; nothing was run")
        case .runChangedWhilePreparing(let runID): .refusal("run \(runID) changed while resuming it was being prepared; try again")
        case .approvalsUnavailable: .refusal("this state keeps no approval requests")
        }
    }

    static func short(_ id: String) -> String { JournalText.shortID(id) }

    static func notResumable(_ run: JournalRun, _ reason: HostError.NotResumable) -> String {
        switch reason {
        case .finished: "run \(run.id) (\(run.playbook)) already finished (\(run.status.rawValue)); nothing to resume"
        case .rolledBack: "run \(run.id) (\(run.playbook)) was rolled back; nothing to resume (start it again with 'skillbook run')"
        case .rollbackIncomplete:
            "run \(run.id) (\(run.playbook)) ended with an incomplete rollback; 'skillbook rollback \(short(run.id))' tries the undo again"
        case .wasRollingBack:
            "run \(run.id) (\(run.playbook)) was being rolled back when it stopped; finish undoing it with 'skillbook rollback \(short(run.id))'"
        case .waitsForApproval:
            "run \(run.id) (\(run.playbook)) waits for an approval; 'skillbook approve \(short(run.id))' or 'skillbook decline \(short(run.id))' decides, and it goes on"
        }
    }

    static func secretInputsMissing(_ runID: String, _ missing: [String]) -> String {
        let one = missing.count == 1
        let flags = missing.map { "-i \($0)=VALUE" }.joined(separator: " ")
        return "run \(runID)'s input\(one ? "" : "s") \(missing.map { "'\($0)'" }.joined(separator: ", ")) "
            + "\(one ? "is" : "are") secret, so the journal did not keep \(one ? "it" : "them"); "
            + "give \(one ? "it" : "them") again: skillbook resume \(short(runID)) \(flags)"
    }

    /// Calls that may or may not have taken effect: what they are and the flags that decide.
    static func uncertain(_ calls: [JournalCall]) -> String {
        let one = calls.count == 1
        let list = calls.map { "  " + $0.described() }.joined(separator: "\n")
        return "\(one ? "a call" : "\(calls.count) calls") of this run started but never recorded a result "
            + "(the process stopped during \(one ? "it" : "them")), and running \(one ? "it" : "them") "
            + "again could do it twice:\n\(list)\nCheck whether \(one ? "it" : "they") took effect, then pass "
            + "--rerun-uncertain to run \(one ? "it" : "them") again or --skip-uncertain to count "
            + "\(one ? "it" : "them") as done (with no output)"
    }
}
