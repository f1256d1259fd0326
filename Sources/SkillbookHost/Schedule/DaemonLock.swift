public import Foundation

/// One daemon per state directory: an exclusive `flock` on `<state>/daemon.pid`, held for the
/// life of the process (the kernel drops it when the process dies, even of `kill -9`), with the
/// holder's pid written in the file so a second daemon can name it.
public final class DaemonLock: Sendable {
    public let file: URL
    private let descriptor: Int32

    /// Why the lock was not taken.
    public enum Failure: Error, Sendable, Equatable {
        /// Another live process holds it; `pid` as it wrote it (0 when unreadable).
        case held(pid: Int32, file: String)
        case unavailable(file: String, reason: String)
    }

    /// Takes the lock at once or fails; never waits. Whoever holds it may be sent `DaemonWake`'s
    /// signal, so that signal is made harmless first.
    public init(stateDirectory: URL) throws(Failure) {
        DaemonWake.install()
        file = stateDirectory.appendingPathComponent("daemon.pid")
        do {
            try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw .unavailable(file: file.path, reason: "\(error.localizedDescription)")
        }
        let fd = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .unavailable(file: file.path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            close(fd)
            throw .held(pid: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, file: file.path)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        descriptor = fd
    }

    /// The pid of the process that holds the lock of `stateDirectory` now (0 when it wrote none),
    /// or `nil` when none does; creates nothing and takes the lock only for the instant of the test.
    public static func holder(stateDirectory: URL) -> Int32? {
        let file = stateDirectory.appendingPathComponent("daemon.pid")
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return nil
        }
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Lets go of the lock (also done when the process ends).
    deinit {
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }
}
