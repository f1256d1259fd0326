import Foundation
import SkillbookCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `files.read`: a text file's content, up to a number of bytes.
struct FilesReadSkill: Skill {
    let environment: SkillEnvironment

    static let defaultMaxBytes = 1 << 20
    static let maxMaxBytes = 64 << 20

    let descriptor = SkillDescriptor(
        id: "files.read",
        title: "Read a text file",
        summary: "Reads a UTF-8 text file and returns { content, truncated, size }: its text (at most max_bytes "
            + "bytes, 1 MiB unless asked, cut at a character boundary), whether it was cut short, and the file's "
            + "size in bytes. A file that is not UTF-8 text (an image, a PDF) is refused with a clear error. Only "
            + "files inside the allowed folders can be read.",
        examples: [
            "read the file {path}", "read {path}", "look at the file {path}", "show me what is in {path}", "show me the contents of {path}", "open the text file {path}",
            "print the readme", "读取文件{path}", "打开文件{path}", "看看{path}的内容", "把{path}读出来",
        ],
        tags: ["files", "read"],
        kind: .query,
        parameters: .object(
            [
                "path": .string(
                    "The file to read, absolute or relative to the current directory.", minLength: 1, format: "path"),
                "max_bytes": .integer(
                    "Read at most this many bytes from the start of the file.", minimum: 1, maximum: maxMaxBytes,
                    default: defaultMaxBytes),
            ],
            required: ["path"]),
        output: .object(
            [
                "content": .string("The file's text (its beginning, when truncated)."),
                "truncated": .boolean("Whether the file is longer than what was read."),
                "size": .integer("The file's size in bytes.", minimum: 0),
            ],
            required: ["content", "truncated", "size"]),
        timeout: 30,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let file = try environment.pathGuard.check(parameters["path"]?.stringValue ?? "")
        let maxBytes = min(max(parameters["max_bytes"]?.intValue ?? Self.defaultMaxBytes, 1), Self.maxMaxBytes)
        switch FileOps.targetKind(file.target) {
        case .file?: break
        case .directory?: throw SkillError("'\(file.parameter)' is a folder, not a file")
        case nil: throw SkillError("there is no file at '\(file.parameter)'")
        default: throw SkillError("'\(file.parameter)' is not a regular file")
        }
        try Task.checkCancellation()
        let (content, truncated, size) = try Self.readText(file.target, maxBytes: maxBytes, parameter: file.parameter)
        return ["content": .string(content), "truncated": .bool(truncated), "size": .int(size)]
    }

    /// The file's text, at most `maxBytes` of it (an incomplete character at the cut left out),
    /// whether it was cut, and the file's size. The bytes are read straight into the string's own
    /// storage and checked there: a large file is in memory once, not as bytes and then as a copy.
    static func readText(_ path: String, maxBytes: Int, parameter: String) throws(SkillError) -> (String, Bool, Int) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw SkillError("cannot read '\(parameter)': \(FileOps.lastError())") }
        defer { close(descriptor) }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        // One byte more than is kept, to tell whether the file is longer.
        let capacity = min(maxBytes + 1, max(size, 0) + 1)
        var failure: SkillError?
        var truncated = false
        let content = String(unsafeUninitializedCapacity: capacity) { buffer -> Int in
            var filled = 0
            while filled < capacity {
                let got = read(descriptor, buffer.baseAddress! + filled, capacity - filled)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = SkillError("cannot read '\(parameter)': \(FileOps.lastError())")
                    return 0
                }
                if got == 0 { break }
                filled += got
            }
            truncated = filled > maxBytes
            var end = min(filled, maxBytes)
            if truncated {
                // Do not cut a character in two: drop an incomplete sequence at the end.
                var back = 0
                while back < 3, end > 0, buffer[end - 1] & 0xC0 == 0x80 {
                    end -= 1
                    back += 1
                }
                if end > 0, buffer[end - 1] & 0xC0 == 0xC0 {
                    let lead = buffer[end - 1]
                    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                    if back + 1 < length { end -= 1 } else { end += back }
                } else {
                    end += back
                }
            }
            // Checked in place; the string would repair (and copy) what is not UTF-8.
            guard (try? UTF8Span(validating: UnsafeBufferPointer(rebasing: buffer[..<end]).span)) != nil else {
                failure = SkillError(
                    "'\(parameter)' is not UTF-8 text (it may be a binary file such as an image or a PDF); "
                        + "files.read reads text only")
                return 0
            }
            return end
        }
        if let failure { throw failure }
        return (content, truncated, size)
    }
}
