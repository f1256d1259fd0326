import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds programs on a `PATH`, so that they run by absolute path and never through a shell.
enum ExecutableSearch {
    /// The absolute path of the first executable regular file called `name` in `searchPath`'s
    /// folders. Relative folders (and an empty entry, which means the current directory) are
    /// skipped, so a file dropped in the working directory is never picked up.
    static func find(_ name: String, searchPath: String?) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = (folder.hasSuffix("/") ? String(folder) : folder + "/") + name
            var info = stat()
            guard stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 else {
                continue
            }
            return candidate
        }
        return nil
    }
}
