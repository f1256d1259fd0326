import Foundation
import SkillbookCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `files.write`: writes text to a file — a new one, replacing one, or at the end of one; undone by
/// putting back exactly what was there before.
///
/// To undo, the output carries what is needed and no more: for `overwrite` of an existing file, a
/// copy of the old file kept in `<state>/trash/…` (so memory stays bounded whatever its size); for
/// `append`, the old size and modification time (the old content is the new file's beginning).
struct FilesWriteSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "files.write",
        title: "Write a text file",
        summary: "Writes text to a file as UTF-8 and returns { path, mode, created, size, bytes_written } "
            + "(plus what is needed to undo it). mode create (the default) makes a new file and refuses one that "
            + "already exists; overwrite replaces the file's content (or creates it); append adds the text at the "
            + "end (or creates it). The folder must already exist. Only files inside the allowed folders can be "
            + "written. Undoing it puts back exactly the previous content, or removes a file it created, unless "
            + "the file was changed since.",
        examples: [
            "write {content} to {path}", "save this text to a file", "append a line to {path}",
            "create a text file called {path}", "save {content} to {path}", "write {content} into {path}",
            "append {content} to {path}", "把{content}写入{path}", "写入文件{path}", "写入{path}", "保存到{path}",
            "追加到{path}", "把{content}保存到{path}", "把{content}追加到{path}", "把{content}写到{path}", "把{content}写进{path}",
            "写一个文件{path}，内容是{content}", "在里面写一个{path}", "write {path} with the text {content}",
        ],
        tags: ["files", "write"],
        kind: .action,
        parameters: .object(
            [
                "path": .string(
                    "The file to write, absolute or relative to the current directory.", minLength: 1, format: "path"),
                "content": .string("The text to write."),
                "mode": .string(
                    "create: a new file, refusing an existing one; overwrite: replace the content; append: add at the end.",
                    enum: ["create", "overwrite", "append"], default: "create"),
            ],
            required: ["path", "content"]),
        output: .object(
            [
                "path": .string("The file's absolute path.", format: "path"),
                "mode": .string("How it was written.", enum: ["create", "overwrite", "append"]),
                "created": .boolean("Whether the file did not exist before."),
                "size": .integer("The file's size in bytes afterwards.", minimum: 0),
                "bytes_written": .integer("How many bytes were written.", minimum: 0),
                "backup": .string(
                    "Where the file's previous content is kept until the run is undone (overwrite of an existing file).",
                    format: "path"),
                "previous_size": .integer("The file's size before (overwrite and append of an existing file).", minimum: 0),
                "previous_modified_ns": .integer(
                    "The file's modification time before, in nanoseconds since 1970 (append to an existing file)."),
            ],
            required: ["path", "mode", "created", "size", "bytes_written"]),
        resources: ["files"],
        timeout: 30,
        idempotent: false,
        reversible: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let file = try environment.pathGuard.checkChangeable(parameters["path"]?.stringValue ?? "")
        // Written from the value's own storage: a large text is not copied on its way to the file.
        let content = parameters["content"]?.stringValue ?? ""
        let mode = parameters["mode"]?.stringValue ?? "create"
        guard ["create", "overwrite", "append"].contains(mode) else {
            throw SkillError("files.write mode must be create, overwrite or append, got '\(mode)'")
        }
        let target = file.target
        switch FileOps.targetKind(target) {
        case .file?, nil: break
        case .directory?: throw SkillError("'\(file.parameter)' is a folder, not a file")
        default: throw SkillError("'\(file.parameter)' is not a regular file")
        }
        guard FileOps.targetKind(FileOps.parent(target)) == .directory else {
            throw SkillError(
                "cannot write '\(file.parameter)': the folder '\(FileOps.parent(target))' does not exist "
                    + "(create it first with files.mkdir)")
        }
        try Task.checkCancellation()
        var output: ValueObject = ["path": .string(target), "mode": .string(mode)]
        let exists = FileOps.exists(file.path)
        if mode == "create" || !exists {
            if exists {
                throw SkillError(
                    "'\(file.parameter)' already exists; use mode overwrite to replace it or append to add to it")
            }
            try Self.create(target, content, parameter: file.parameter)
            output["created"] = true
        } else if mode == "overwrite" {
            let previous = FileOps.sizeAndModified(target)?.size ?? 0
            let folder = try environment.newTrashFolder()
            let backup = FileOps.join(folder, FileOps.name(target))
            do {
                try FileOps.copy(target, to: backup, preservingTimes: true)
            } catch {
                try? FileOps.remove(folder)
                throw error
            }
            do {
                try Self.write(target, content, flags: O_TRUNC, parameter: file.parameter)
            } catch {
                try? FileOps.restore(backup, over: target)
                throw error
            }
            output["created"] = false
            output["backup"] = .string(backup)
            output["previous_size"] = .int(previous)
        } else {
            guard let previous = FileOps.sizeAndModified(target)?.size, let time = FileOps.modificationTime(of: target)
            else { throw SkillError("cannot read '\(file.parameter)': \(FileOps.lastError())") }
            do {
                try Self.write(target, content, flags: O_APPEND, parameter: file.parameter)
            } catch {
                truncate(target, off_t(previous))
                throw error
            }
            output["created"] = false
            output["previous_size"] = .int(previous)
            output["previous_modified_ns"] = .int(Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec))
        }
        output["size"] = .int(FileOps.sizeAndModified(target)?.size ?? content.utf8.count)
        output["bytes_written"] = .int(content.utf8.count)
        return .object(output)
    }

    /// Removes a file the call created, or puts back the previous content. Refuses when the file's
    /// size is no longer what the call left (someone changed it since); already undone is not an error.
    func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        let output = call.output
        guard let recorded = output["path"]?.stringValue, let created = output["created"]?.boolValue,
            let size = output["size"]?.intValue
        else { throw SkillError("cannot undo files.write: its output has no path, created and size") }
        let path = try environment.pathGuard.checkRecorded(recorded).target
        let current = FileOps.sizeAndModified(path)?.size
        func changed() -> SkillError {
            SkillError(
                "cannot undo files.write: '\(path)' was changed since it was written (\(current ?? 0) bytes now, "
                    + "\(size) then); leaving it as it is")
        }
        if created {
            guard let current else { return }  // already gone
            guard current == size else { throw changed() }
            guard unlink(path) == 0 else { throw SkillError("cannot remove '\(path)': \(FileOps.lastError())") }
            return
        }
        guard let previousSize = output["previous_size"]?.intValue else {
            throw SkillError("cannot undo files.write: its output has no previous_size")
        }
        if let backup = output["backup"]?.stringValue {
            let backup = try environment.pathGuard.checkRecorded(backup).path
            guard FileOps.exists(backup) else {
                if current == previousSize { return }  // already put back
                throw SkillError("cannot undo files.write: the copy of the previous content ('\(backup)') is gone")
            }
            guard current == size else { throw changed() }
            try FileOps.restore(backup, over: path)
            rmdir(FileOps.parent(backup))
            return
        }
        guard let nanoseconds = output["previous_modified_ns"]?.intValue else {
            throw SkillError("cannot undo files.write: its output has neither backup nor previous_modified_ns")
        }
        if current == previousSize { return }  // already cut back
        guard current == size else { throw changed() }
        guard truncate(path, off_t(previousSize)) == 0 else {
            throw SkillError("cannot undo files.write: cannot shorten '\(path)': \(FileOps.lastError())")
        }
        try FileOps.setModificationTime(
            path, timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000))
    }

    /// A new file with `content`; nothing is left behind on failure.
    static func create(_ path: String, _ content: String, parameter: String) throws(SkillError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        guard descriptor >= 0 else {
            if errno == EEXIST {
                throw SkillError(
                    "'\(parameter)' already exists; use mode overwrite to replace it or append to add to it")
            }
            throw SkillError("cannot create '\(parameter)': \(FileOps.lastError())")
        }
        do throws(SkillError) {
            try FileOps.writeAll(descriptor, content, path: parameter)
            close(descriptor)
        } catch {
            close(descriptor)
            unlink(path)
            throw error
        }
    }

    /// Writes `content` to an existing file opened with `flags` (`O_TRUNC` or `O_APPEND`).
    static func write(_ path: String, _ content: String, flags: Int32, parameter: String) throws(SkillError) {
        let descriptor = open(path, O_WRONLY | flags)
        guard descriptor >= 0 else { throw SkillError("cannot write '\(parameter)': \(FileOps.lastError())") }
        defer { close(descriptor) }
        try FileOps.writeAll(descriptor, content, path: parameter)
    }
}
