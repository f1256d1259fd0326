import Foundation
import SkillbookCore

extension PlaybookHost {
    /// Records the configuration's workspace folder for a run about to start.
    func recordWorkspace(of runID: String, in journal: (any RunJournal)?) async throws(HostError) {
        guard let journal, let root = configuration.workspaceRoot else { return }
        try await HostError.journaling { try await journal.setWorkspace(root.path, forRun: runID) }
    }

    /// The host to resume or undo `run` with: when the run recorded a workspace other than this
    /// host's, the same configuration with that workspace's skills and playbooks (the skill folders
    /// given besides this workspace's own `Skills` are kept); otherwise `nil` (this host will do).
    /// A recorded workspace that no longer exists is not used.
    func hostForRecordedWorkspace(of run: JournalRun) -> PlaybookHost? {
        guard let path = run.workspace, path != configuration.workspaceRoot?.path else { return nil }
        let root = URL(fileURLWithPath: path, isDirectory: true)
        guard HostConfiguration.isDirectory(root) else { return nil }
        var other = configuration
        let ownSkills = (configuration.workspaceRoot ?? configuration.currentDirectory).appendingPathComponent("Skills").standardizedFileURL.path
        var directories: [URL] = []
        let skills = root.appendingPathComponent("Skills")
        if HostConfiguration.isDirectory(skills) { directories.append(skills) }
        for directory in configuration.skillDirectories where directory.standardizedFileURL.path != ownSkills {
            if !directories.contains(where: { $0.path == directory.path }) { directories.append(directory) }
        }
        other.skillDirectories = directories
        if configuration.playbooksDirectory.standardizedFileURL.path
            == (configuration.workspaceRoot ?? configuration.currentDirectory).appendingPathComponent("Playbooks").standardizedFileURL.path
        {
            other.playbooksDirectory = root.appendingPathComponent("Playbooks")
        }
        other.allowedPaths = [root] + configuration.allowedPaths
        other.workspaceRoot = root
        return PlaybookHost(other)
    }

    /// The recorded run `reference` names, for choosing the host that takes it on.
    func recordedRun(_ reference: String) async throws(HostError) -> JournalRun? {
        let journal = try openJournal()
        let runID = try await HostError.journaling { try await journal.resolveRunID(reference) }
        return try await HostError.journaling { try await journal.run(runID) }
    }
}
