import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes playbook files for the console — an edited playbook, a chat's plan saved as one — only
/// inside the playbooks folder and only whole: the text goes to a temporary file in the folder,
/// is flushed, then takes the file's place in one step (`rename`, or `link` when nothing may be
/// overwritten), so a reader sees the old file or the new one, never half of it.
struct PlaybookWriter: Sendable {
    let folder: URL

    enum Failure: Error, Equatable {
        /// The file exists and was not to be overwritten.
        case exists(String)
        /// The name would reach outside the folder (a path, a link leading out).
        case outside(String)
        /// The file is not there (to replace one that is).
        case missing(String)
        case io(String)
    }

    /// `Playbooks/NAME.yaml` (or the `.yml` one that exists), checked to stay in the folder.
    func file(named name: String) throws(Failure) -> URL {
        guard ConsoleAPI.isPlainName(name) else { throw .outside(name) }
        let yml = folder.appendingPathComponent("\(name).yml")
        let url = FileManager.default.fileExists(atPath: yml.path) ? yml : folder.appendingPathComponent("\(name).yaml")
        // A link in the folder that leads elsewhere is not written through.
        let real = url.resolvingSymlinksInPath().deletingLastPathComponent().standardizedFileURL.path
        guard real == folder.resolvingSymlinksInPath().standardizedFileURL.path else { throw .outside(name) }
        return url
    }

    /// Writes `text` as a new file; refuses when the file exists.
    func create(_ text: String, named name: String) throws(Failure) -> URL {
        let url = try file(named: name)
        let temporary = try writeTemporary(text)
        defer { unlink(temporary.path) }
        guard link(temporary.path, url.path) == 0 else {
            let code = errno
            if code == EEXIST { throw .exists(url.lastPathComponent) }
            throw .io("cannot write \(url.lastPathComponent): \(String(cString: strerror(code)))")
        }
        return url
    }

    /// Replaces an existing file with `text`.
    func replace(_ text: String, named name: String) throws(Failure) -> URL {
        let url = try file(named: name)
        var status = stat()
        guard lstat(url.path, &status) == 0 else { throw .missing(url.lastPathComponent) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .outside(name) }
        let temporary = try writeTemporary(text, mode: status.st_mode & 0o777)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw .io("cannot write \(url.lastPathComponent): \(String(cString: strerror(code)))")
        }
        return url
    }

    private func writeTemporary(_ text: String, mode: mode_t = 0o644) throws(Failure) -> URL {
        let url = folder.appendingPathComponent(".skillbook-\(UUID().uuidString).tmp")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .io("cannot write in \(folder.lastPathComponent)/: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                unlink(url.path)
                throw .io("cannot write in \(folder.lastPathComponent)/: \(String(cString: strerror(code)))")
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            unlink(url.path)
            throw .io("cannot write in \(folder.lastPathComponent)/: \(String(cString: strerror(errno)))")
        }
        _ = fchmod(descriptor, mode)
        return url
    }
}
