public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
public import SkillbookCore
public import SkillbookSchedule

/// The scheduled playbooks of a workspace's playbooks folder, as last read: every file that checks
/// and has a `schedule:`, and the files that do not check (reported, not dropped silently).
public struct ScheduledWorkspace: Sendable {
    /// One scheduled playbook and its file.
    public struct Entry: Sendable {
        public var playbook: Playbook
        public var file: URL
    }

    /// A playbook file with errors: its schedule (if any) is not known until it is fixed.
    public struct Broken: Sendable, Hashable {
        public var file: String
        /// The first error, `file:line:column: message`.
        public var message: String
        /// Whether the file says `schedule:` at its top (as far as it reads as YAML): a draft
        /// without one is broken but no schedule is lost.
        public var declaresSchedule = false
    }

    public var entries: [Entry]
    public var broken: [Broken]
    /// Each file's modification date and size when read, to notice a change.
    public var stamps: [String: String]

    /// The daemon's view of the schedules.
    public var scheduled: [ScheduledPlaybook] { entries.map { ScheduledPlaybook($0.playbook) } }
    /// Name to file, for the fire starter.
    public var files: [String: URL] { Dictionary(entries.map { ($0.playbook.name, $0.file) }, uniquingKeysWith: { first, _ in first }) }
}

extension PlaybookHost {
    /// Reads every playbook file of the playbooks folder and keeps those with a schedule; a file
    /// with errors is listed in `broken`. Throws only when the skills cannot be loaded.
    public func scheduledWorkspace() throws(HostError) -> ScheduledWorkspace {
        let registry = try loadRegistry().registry
        var entries: [ScheduledWorkspace.Entry] = []
        var broken: [ScheduledWorkspace.Broken] = []
        for url in playbookFiles() {
            do throws(HostError) {
                let file = try loadPlaybook(at: url, registry: registry)
                guard let playbook = file.playbook else {
                    let first = file.result.diagnostics.first { $0.severity == .error } ?? file.result.diagnostics.first
                    let top = (try? YAMLLoader().load(file.text, file: file.displayName))?.value.objectValue
                    broken.append(
                        .init(
                            file: file.displayName, message: first.map { "\($0)" } ?? "\(file.displayName): has errors",
                            declaresSchedule: top?["schedule"] != nil))
                    continue
                }
                if !playbook.schedule.isEmpty { entries.append(.init(playbook: playbook, file: url)) }
            } catch {
                broken.append(.init(file: displayPath(url), message: "\(displayPath(url)): \(error)"))
            }
        }
        return ScheduledWorkspace(entries: entries, broken: broken, stamps: scheduleStamps())
    }

    /// The modification date and size of each playbook file: a change means a reload.
    public func scheduleStamps() -> [String: String] {
        var stamps: [String: String] = [:]
        for url in playbookFiles() { stamps[url.path] = Self.stamp(url.path) }
        return stamps
    }

    /// A file's modification time (to the nanosecond) and size from one `stat` call: the daemon's
    /// watcher takes this every 2 s for every playbook, so it avoids `attributesOfItem` (which also
    /// looks up owner and group names).
    static func stamp(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "missing" }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return "\(time.tv_sec).\(time.tv_nsec)/\(status.st_size)"
    }
}
