public import Foundation
public import SkillbookCore
public import SkillbookSchedule
import Synchronization

/// Starts each fire as a run through the host: trigger `schedule`, the entry's `inputs:`, and the
/// fire's instant journaled as `scheduled_at`. On a state that queues runs (PostgreSQL) the run is
/// queued for any worker instead (`PlaybookHost.enqueue`). Steps that ask for confirmation follow
/// the host's confirmation policy (a daemon has no one to ask: `.refuse`).
public final class ScheduleFireStarter: FireStarter {
    public let host: PlaybookHost
    /// One plain line per run that ends (`run finished sync run=… status=succeeded`).
    public let log: @Sendable (String) -> Void
    private let files: Mutex<[String: URL]>

    /// `files` maps each scheduled playbook's name to its file.
    public init(host: PlaybookHost, files: [String: URL], log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.host = host
        self.files = Mutex(files)
        self.log = log
    }

    /// Replaces the name-to-file map (the workspace was reloaded).
    public func update(files: [String: URL]) {
        self.files.withLock { $0 = files }
    }

    public func run(_ fire: Fire, inputs: [ScheduleInput]) async {
        let name = fire.key.playbook
        let file = files.withLock { $0[name] }
        var values = ValueObject()
        for input in inputs { values[input.name] = input.value }
        let request = RunRequest(
            playbook: file?.path ?? name, inputs: values, trigger: .schedule, scheduledAt: fire.scheduledAt)
        do {
            if host.persistence.queuesRuns {
                // A state shared by machines: the fire becomes a queued run, for any worker.
                let runID = try await host.enqueue(request)
                log("fire queued \(name) run=\(runID) scheduled=\(ISOTime.format(fire.scheduledAt, in: .gmt))")
                return
            }
            let result = try await host.run(request)
            var line = "run finished \(name) run=\(result.runID) scheduled=\(ISOTime.format(fire.scheduledAt, in: .gmt)) status=\(result.status.rawValue)"
            if let error = result.error { line += " error=\(Self.oneLine(error))" }
            log(line)
        } catch {
            log("run not started \(name) scheduled=\(ISOTime.format(fire.scheduledAt, in: .gmt)) error=\(Self.oneLine("\(error)"))")
        }
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " | ")
    }
}
