import Foundation
import SkillbookCore

extension WorkspaceFileReader {
    static let providerKeys = ["env", "file", "command", "timeout"]

    /// `secrets:`: name → `{ env: NAME }`, `{ file: PATH }` or `{ command: [ARGV…], timeout: 10 }`.
    mutating func secrets(_ node: YAMLNode) -> [SecretDeclaration] {
        guard let pairs = node.mapping else {
            error("'secrets' must be a mapping of names to providers ({ env: NAME }, { file: PATH } or { command: [ARGV…] })", node)
            return []
        }
        var declarations: [SecretDeclaration] = []
        for pair in pairs {
            guard let name = pair.key.scalar, Self.isSecretName(name) else {
                error("a secret's name is letters, digits and '_', starting with a letter", pair.key)
                continue
            }
            if let provider = provider(pair.value, name) {
                declarations.append(SecretDeclaration(name: name, provider: provider, location: pair.key.location))
            }
        }
        return declarations
    }

    static func isSecretName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    private mutating func provider(_ node: YAMLNode, _ name: String) -> SecretProvider? {
        let shape = "secret '\(name)' must be { env: NAME }, { file: PATH } or { command: [ARGV…] }"
        guard let pairs = node.mapping else {
            error("\(shape), not a \(node.kindName)", node)
            return nil
        }
        var found: [SecretProvider] = []
        var timeout = SecretProvider.defaultTimeout
        var command: [String]?
        for pair in pairs {
            switch pair.key.scalar ?? "" {
            case "env":
                if let variable = string(pair.value, "secrets.\(name).env") { found.append(.environment(variable)) }
            case "file":
                if let path = string(pair.value, "secrets.\(name).file") {
                    let expanded = HostConfiguration.expandingHome(path, home: home)
                    found.append(.file(HostConfiguration.resolve(expanded, against: root).path))
                }
            case "command":
                guard let items = pair.value.sequence, !items.isEmpty,
                    case let argv = items.compactMap(\.scalar), argv.count == items.count, !argv[0].isEmpty
                else {
                    error("'secrets.\(name).command' must be a list of arguments, the program first (never run by a shell)", pair.value)
                    continue
                }
                command = argv
            case "timeout":
                guard let text = pair.value.scalar, let seconds = DurationText.seconds(text), seconds > 0 else {
                    error("'secrets.\(name).timeout' must be a duration above 0, such as 10s, 2m or 10 (seconds)", pair.value)
                    continue
                }
                timeout = seconds
            default:
                unknown(pair.key, among: Self.providerKeys, in: "secrets.\(name)")
            }
        }
        if let command { found.append(.command(command, timeout: timeout)) }
        guard found.count == 1 else {
            error(found.isEmpty ? shape : "\(shape): give one of them, not \(found.count)", node)
            return nil
        }
        return found[0]
    }
}
