#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// Reads a file the program parses (a playbook, a manifest, `skillbook.yaml`, an inputs file),
/// refusing before reading what is not a regular file (a FIFO, `/dev/zero`, a directory) or is
/// over `Limits.sourceFileBytes`: a 2 GB file of NULs took 24 s and 4.2 GB to be refused by libyaml.
///
/// The file is opened without blocking (a FIFO with no writer does not hang the open), checked
/// with `fstat` on that descriptor, and read no further than the limit (a file growing meanwhile
/// is refused too).
public enum SourceFile {
    /// Why a file was not read; `message` names the file and the limit.
    public enum Refusal: Error, Sendable, Equatable {
        case unreadable(file: String)
        case notRegular(file: String, kind: String)
        case tooLarge(file: String, limit: Int)

        public var message: String {
            switch self {
            case .unreadable(let file): "\(file): cannot be read"
            case .notRegular(let file, let kind):
                "\(file): is \(kind), not a regular file; only regular files are read"
            case .tooLarge(let file, let limit):
                "\(file): is larger than \(limit) bytes, the limit for a playbook, manifest, skillbook.yaml or inputs file"
            }
        }

        /// The refusal as an error diagnostic naming the file.
        public var diagnostic: Diagnostic {
            switch self {
            case .unreadable(let file), .notRegular(let file, _), .tooLarge(let file, _):
                let text = message
                return .error(String(text.dropFirst(file.count + 2)), path: file)
            }
        }
    }

    /// The bytes of the file at `path`; `display` names it in a refusal. `nil` when there is no
    /// file there.
    public static func contents(_ path: String, display: String, limit: Int = Limits.sourceFileBytes) throws(Refusal) -> Data? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .unreadable(file: display)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(file: display) }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegular(file: display, kind: kindName(type)) }
        guard Int(status.st_size) <= limit else { throw .tooLarge(file: display, limit: limit) }
        // Read up to one byte past the limit, whatever the size said.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw .tooLarge(file: display, limit: limit) }
                bytes += [UInt8](repeating: 0, count: min(max(count, 4096), limit + 1 - count))
            }
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(file: display) }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw .tooLarge(file: display, limit: limit) }
        return Data(bytes[..<count])
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }
}
