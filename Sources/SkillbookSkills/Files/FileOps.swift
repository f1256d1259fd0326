import Foundation
import SkillbookCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file-system operations file skills need, on absolute paths, with errors that name the
/// path and say what went wrong (POSIX calls, so that the message is the system's own).
///
/// Nothing here follows a symbolic link unless it says so: a link is moved, copied, trashed and
/// removed as a link.
enum FileOps {
    enum Kind: Sendable, Equatable {
        case file, directory, symlink, other
    }

    /// What is at `path` itself (`lstat`), or `nil` when nothing is.
    static func kind(_ path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return kind(mode: info.st_mode)
    }

    /// What `path` leads to, following symbolic links (`stat`); `nil` when nothing (or a dangling link).
    static func targetKind(_ path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(mode: info.st_mode)
    }

    static func exists(_ path: String) -> Bool { kind(path) != nil }

    private static func kind(mode: mode_t) -> Kind {
        switch mode & mode_t(0o170000) {
        case mode_t(0o040000): .directory
        case mode_t(0o100000): .file
        case mode_t(0o120000): .symlink
        default: .other
        }
    }

    /// Size in bytes and modification time of what `path` leads to.
    static func sizeAndModified(_ path: String) -> (size: Int, modified: Date)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let time = modificationTime(info)
        return (Int(info.st_size), Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9))
    }

    private static func modificationTime(_ info: stat) -> timespec {
        #if canImport(Darwin)
            info.st_mtimespec
        #else
            info.st_mtim
        #endif
    }

    /// The system's words for the last error.
    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// `path` relative to nothing: the last component, for messages and default names.
    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func parent(_ path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "/" : parent
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// Whether `path` is `ancestor` or inside it (both absolute and normalised).
    static func isInside(_ path: String, _ ancestor: String) -> Bool {
        path == ancestor || path.hasPrefix(ancestor == "/" ? "/" : ancestor + "/")
    }

    // MARK: - Changing things

    /// Renames `from` to `to` (which must not exist; the caller checks); across file systems, copies
    /// with modes and times and then removes the original.
    static func move(_ from: String, to: String) throws(SkillError) {
        if rename(from, to) == 0 { return }
        guard errno == EXDEV else {
            throw SkillError("cannot move '\(from)' to '\(to)': \(lastError())")
        }
        do throws(SkillError) {
            try copy(from, to: to, preservingTimes: true)
        } catch {
            try? remove(to)
            throw error
        }
        try remove(from)
    }

    /// Puts `backup` in the place of `path` (replacing what is there), keeping the backup's modes and
    /// times; the backup is gone afterwards.
    static func restore(_ backup: String, over path: String) throws(SkillError) {
        if rename(backup, path) == 0 { return }
        guard errno == EXDEV else {
            throw SkillError("cannot put '\(backup)' back at '\(path)': \(lastError())")
        }
        try remove(path)
        try move(backup, to: path)
    }

    /// Copies `from` (a file, a folder with everything in it, or a link as a link) to `to`, which
    /// must not exist. Modes are kept; times too when `preservingTimes`.
    static func copy(_ from: String, to: String, preservingTimes: Bool) throws(SkillError) {
        var info = stat()
        guard lstat(from, &info) == 0 else { throw SkillError("cannot copy '\(from)': \(lastError())") }
        switch kind(mode: info.st_mode) {
        case .symlink:
            let destination: String
            do {
                destination = try FileManager.default.destinationOfSymbolicLink(atPath: from)
            } catch {
                throw SkillError("cannot read the symbolic link '\(from)'")
            }
            guard symlink(destination, to) == 0 else {
                throw SkillError("cannot create the symbolic link '\(to)': \(lastError())")
            }
            return
        case .directory:
            guard mkdir(to, 0o700) == 0 else { throw SkillError("cannot create the folder '\(to)': \(lastError())") }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: from).sorted()
            } catch {
                throw SkillError("cannot read the folder '\(from)'")
            }
            for name in names {
                try copy(join(from, name), to: join(to, name), preservingTimes: preservingTimes)
            }
        case .file:
            try copyContents(from, to: to)
        case .other:
            throw SkillError("cannot copy '\(from)': it is not a file, a folder or a symbolic link")
        }
        guard chmod(to, info.st_mode & mode_t(0o7777)) == 0 else {
            throw SkillError("cannot set the permissions of '\(to)': \(lastError())")
        }
        if preservingTimes { try setModificationTime(to, modificationTime(info)) }
    }

    private static func copyContents(_ from: String, to: String) throws(SkillError) {
        let input = open(from, O_RDONLY)
        guard input >= 0 else { throw SkillError("cannot read '\(from)': \(lastError())") }
        defer { close(input) }
        let output = open(to, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard output >= 0 else { throw SkillError("cannot create '\(to)': \(lastError())") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SkillError("cannot read '\(from)': \(lastError())")
            }
            if count == 0 { return }
            try writeAll(output, buffer[0..<count], path: to)
        }
    }

    /// Writes every byte of `bytes` to `descriptor`.
    /// Writes `text`'s UTF-8 bytes from the string's own storage (a native string is not copied).
    static func writeAll(_ descriptor: Int32, _ text: String, path: String) throws(SkillError) {
        var text = text
        let result = text.withUTF8 { bytes -> Result<Void, SkillError> in
            Result { () throws(SkillError) in try writeAll(descriptor, UnsafeRawBufferPointer(bytes), path: path) }
        }
        try result.get()
    }

    static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, path: String) throws(SkillError) {
        let result = bytes.withUnsafeBytes { buffer -> Result<Void, SkillError> in
            Result { () throws(SkillError) in try writeAll(descriptor, buffer, path: path) }
        }
        try result.get()
    }

    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SkillError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw SkillError("cannot write '\(path)': \(lastError())")
            }
            offset += written
        }
    }

    /// The modification time of `path` itself.
    static func modificationTime(of path: String) -> timespec? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return modificationTime(info)
    }

    /// Sets the modification time of `path` itself, keeping its access time.
    static func setModificationTime(_ path: String, _ time: timespec) throws(SkillError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw SkillError("cannot set the modification time of '\(path)': \(lastError())")
        }
        #if canImport(Darwin)
            let accessed = info.st_atimespec
        #else
            let accessed = info.st_atim
        #endif
        var times = [accessed, time]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw SkillError("cannot set the modification time of '\(path)': \(lastError())")
        }
    }

    /// Removes `path`: a file or link, or a folder with everything in it.
    static func remove(_ path: String) throws(SkillError) {
        guard let kind = kind(path) else { return }
        if kind == .directory {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw SkillError("cannot read the folder '\(path)'")
            }
            for name in names { try remove(join(path, name)) }
            guard rmdir(path) == 0 else { throw SkillError("cannot remove the folder '\(path)': \(lastError())") }
        } else {
            guard unlink(path) == 0 else { throw SkillError("cannot remove '\(path)': \(lastError())") }
        }
    }

    /// Creates the folder `path` and, when `parents`, the missing folders above it; returns the
    /// folders it created, outermost first. An existing folder is not an error.
    static func makeDirectory(_ path: String, parents: Bool) throws(SkillError) -> [String] {
        var missing: [String] = []
        var current = path
        while kind(current) == nil {
            missing.append(current)
            let up = parent(current)
            if up == current { break }
            current = up
        }
        if exists(current), targetKind(current) != .directory {
            throw SkillError("cannot create the folder '\(path)': '\(current)' exists and is not a folder")
        }
        missing.reverse()
        if missing.count > 1, !parents {
            throw SkillError(
                "cannot create the folder '\(path)': the folder '\(parent(path))' does not exist "
                    + "(pass parents: true to create it too)")
        }
        var created: [String] = []
        for folder in missing {
            guard mkdir(folder, 0o777) == 0 else {
                let message = lastError()
                for done in created.reversed() { rmdir(done) }
                throw SkillError("cannot create the folder '\(folder)': \(message)")
            }
            created.append(folder)
        }
        return created
    }

    /// Removes the folders `created` (outermost first), innermost first, each only if empty.
    /// Returns the ones left because something is in them.
    static func removeCreatedFolders(_ created: [String]) throws(SkillError) -> [String] {
        var kept: [String] = []
        for folder in created.reversed() {
            guard let kind = kind(folder) else { continue }
            guard kind == .directory else {
                throw SkillError("'\(folder)' is no longer a folder")
            }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if !contents.isEmpty {
                kept.append(folder)
                continue
            }
            guard rmdir(folder) == 0 else {
                throw SkillError("cannot remove the folder '\(folder)': \(lastError())")
            }
        }
        return kept
    }
}

extension Date {
    /// ISO 8601 in UTC, as `date-time` outputs are written.
    var isoText: String { DateParser.formatUTC(self) }
}
