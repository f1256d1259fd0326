#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// glibc functions Swift's Glibc module does not show (they need `_GNU_SOURCE`), found at run time.
enum POSIXExtras {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    private static let pipe2: Pipe2? = lookup("pipe2")
    private static let addCloseFrom: AddCloseFrom? = lookup("posix_spawn_file_actions_addclosefrom_np")
    private static let addChdir: AddChdir? = lookup("posix_spawn_file_actions_addchdir_np")

    private static func lookup<T>(_ name: String) -> T? {
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }

    /// A pipe whose ends close on exec (atomically when `pipe2` exists).
    static func closeOnExecPipe(_ fds: UnsafeMutablePointer<Int32>) -> Bool {
        if let pipe2 { return pipe2(fds, O_CLOEXEC) == 0 }
        guard pipe(fds) == 0 else { return false }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    /// Makes the child close every descriptor from 3 up, so it inherits nothing but its three
    /// streams (sockets and pipes of this process that are not close-on-exec included).
    static func closeInherited(_ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom, addCloseFrom(&actions, 3) == 0 { return }
        // Older C libraries: close what is open now.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for name in open {
            guard let fd = Int32(name), fd > 2, fcntl(fd, F_GETFD) >= 0 else { continue }
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// Makes the child start in `directory`; `false` when this C library cannot.
    static func setDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Bool {
        guard let addChdir else { return false }
        return addChdir(&actions, directory) == 0
    }
}
