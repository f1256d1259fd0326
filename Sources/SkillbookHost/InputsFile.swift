import Foundation
import SkillbookCore

/// An inputs file: a YAML or JSON mapping of input names to values.
enum InputsFile {
    /// The values of the file at `path` (relative to the host's current directory); none without a path.
    static func read(_ path: String?, host: PlaybookHost) throws(HostError) -> ValueObject {
        guard let path else { return ValueObject() }
        let read: Data?
        do {
            read = try SourceFile.contents(host.file(path).path, display: path)
        } catch {
            if case .unreadable = error { throw .inputsFileUnreadable(path: path) }
            throw .invalidInputs(diagnostics: [error.diagnostic])
        }
        guard let data = read, let text = String(data: data, encoding: .utf8) else {
            throw .inputsFileUnreadable(path: path)
        }
        // JSON is read by the JSON decoder (libyaml refuses surrogate-pair escapes such as
        // "\ud83d\udca9"); anything else, or JSON with an error, by YAML, which says where.
        if text.first(where: { !$0.isWhitespace }) == "{", case .object(let object)? = try? JSONText.decode(text) {
            return object
        }
        let node: YAMLNode?
        do {
            node = try YAMLLoader().load(text, file: path)
        } catch {
            throw .invalidInputs(diagnostics: error.diagnostics)
        }
        guard let node else { return ValueObject() }
        guard case .object(let object) = node.value else {
            throw .invalidInputs(diagnostics: [
                .error("an inputs file must be a mapping of input names to values, not a \(node.kindName)", at: node.location)
            ])
        }
        return object
    }
}
