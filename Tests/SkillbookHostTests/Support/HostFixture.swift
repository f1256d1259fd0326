import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import SkillbookTesting
import Synchronization

/// A fresh workspace under the temp directory (removed afterwards) and a host configured on it,
/// on a manual clock (see `driving`).
final class HostFixture: Sendable {
    let url: URL
    let clock = ManualClock()
    private let ids = Mutex(0)

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-host-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var path: String { url.path }
    var state: URL { url.appendingPathComponent("state") }

    @discardableResult
    func write(_ name: String, _ text: String) -> URL {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }

    /// The configuration of the workspace: playbooks in `Playbooks`, state in `state`, UTC, the
    /// manual clock, run ids `run-1`, `run-2`, … (padded to look like ids).
    func configuration(confirmation: ConfirmationPolicy = .refuseByDefault) -> HostConfiguration {
        let clock = clock
        return HostConfiguration(
            playbooksDirectory: url.appendingPathComponent("Playbooks"), stateDirectory: state, timeZone: TimeZone(identifier: "UTC")!,
            clock: clock,
            ids: IDGenerator {
                let next = self.ids.withLock { count in
                    count += 1
                    return count
                }
                return "0000000\(next)-0000-4000-8000-000000000000"
            },
            confirmation: confirmation, environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            currentDirectory: url)
    }

    func host(confirmation: ConfirmationPolicy = .refuseByDefault) -> PlaybookHost {
        PlaybookHost(configuration(confirmation: confirmation))
    }
}

extension HostFixture {
    /// Runs `operation` while moving the manual clock on to the next deadline whenever a task
    /// sleeps on it: retry delays pass at once, and by exactly their length on the clock.
    func driving<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let clock = clock
        let driver = Task {
            while !Task.isCancelled {
                if let deadline = clock.nextDeadline { clock.advance(to: deadline) }
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        defer { driver.cancel() }
        return try await operation()
    }
}

/// Notices a host reported, in order.
final class NoticeLog: Sendable {
    private let notices = Mutex<[HostNotice]>([])
    var all: [HostNotice] { notices.withLock { $0 } }
    var handler: HostNoticeHandler { { notice in self.notices.withLock { $0.append(notice) } } }
}
