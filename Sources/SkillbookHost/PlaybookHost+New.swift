import Foundation
import SkillbookCore

extension PlaybookHost {
    /// Writes `NAME.yaml` in the playbooks folder (made when missing): a commented skeleton with a
    /// step for each of `skills` (its required parameters filled with placeholders), checked before
    /// it is written, so it validates as written. Refuses, writing nothing, when the name is not a
    /// valid playbook name, a skill is unknown (every one is named), or `NAME.yaml` or `NAME.yml`
    /// already exists. Returns the file as written and checked.
    public func newPlaybook(name: String, skills: [String], onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> PlaybookFile {
        guard PlaybookDecoder.isValidPlaybookName(name) else { throw .invalidPlaybookName(name: name, suggestion: Self.validName(near: name)) }
        let registry = try await registry(onNotice)
        var descriptors: [SkillDescriptor] = []
        var unknown: [Diagnostic] = []
        for id in skills {
            if let skill = registry[id] {
                descriptors.append(skill.descriptor)
            } else {
                let suggestion = Suggestion.closest(to: id, in: registry.ids).map { "; did you mean '\($0)'?" } ?? " (see 'skillbook skills')"
                unknown.append(.error("no skill '\(id)'\(suggestion)", path: "--skill \(id)"))
            }
        }
        if !unknown.isEmpty { throw .invalidInputs(diagnostics: unknown) }
        let directory = configuration.playbooksDirectory
        for ext in ["yaml", "yml"] {
            let existing = directory.appendingPathComponent("\(name).\(ext)")
            if FileManager.default.fileExists(atPath: existing.path) { throw .playbookExists(path: displayPath(existing)) }
        }
        let url = directory.appendingPathComponent("\(name).yaml")
        let text = PlaybookSkeleton.text(name: name, skills: descriptors)
        let file = PlaybookFile(url: url, displayName: displayPath(url), text: text, result: check(text, file: displayPath(url), registry: registry))
        guard file.playbook != nil else { throw .invalidPlaybook(diagnostics: file.result.diagnostics, sources: file.sources) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Refuse to replace a file made meanwhile: create it only where there is none.
            guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: nil),
                let handle = FileHandle(forWritingAtPath: url.path)
            else { throw HostError.failed(message: "cannot write \(file.displayName)") }
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw HostError(error)
        }
        return file
    }

    /// A valid playbook name close to `name`: lower case, `-` for runs of anything else.
    static func validName(near name: String) -> String? {
        var text = ""
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                text.append(character)
            } else if !text.isEmpty && text.last != "-" {
                text.append("-")
            }
        }
        while text.last == "-" { text.removeLast() }
        if text.hasSuffix("-yaml") { text.removeLast(5) }
        while let first = text.first, !first.isLetter { text.removeFirst() }
        return PlaybookDecoder.isValidPlaybookName(text) && text != name ? text : nil
    }
}
