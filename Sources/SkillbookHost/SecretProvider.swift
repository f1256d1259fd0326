public import Foundation
public import SkillbookCore

/// Where a secret of `secrets:` in `skillbook.yaml` is read from when a run starts. Its value is
/// never written anywhere; a failure names the provider, never the value.
public enum SecretProvider: Sendable, Hashable, CustomStringConvertible {
    /// An environment variable of the process that runs the playbook.
    case environment(String)
    /// A file owned by the user and readable by nobody else (mode 0600 or 0400); relative paths
    /// are taken in the workspace.
    case file(String)
    /// A command's trimmed stdout (argv, never a shell), stopped after `timeout` seconds.
    case command([String], timeout: Double)

    /// Seconds a command provider may take unless `timeout:` says otherwise.
    public static let defaultTimeout = 10.0

    public var description: String {
        switch self {
        case .environment(let name): "the environment variable \(name)"
        case .file(let path): "the file \(path)"
        case .command(let argv, _): "the command '\(argv.joined(separator: " "))'"
        }
    }
}

/// One entry of `secrets:`: a name and its provider, with where it was written.
public struct SecretDeclaration: Sendable, Hashable {
    public var name: String
    public var provider: SecretProvider
    public var location: SourceLocation

    public init(name: String, provider: SecretProvider, location: SourceLocation) {
        self.name = name
        self.provider = provider
        self.location = location
    }
}

/// Reads secrets from their providers.
public struct SecretResolver: Sendable {
    public var declarations: [SecretDeclaration]
    public var environment: [String: String]
    /// Where relative file paths are taken.
    public var root: URL
    public var processes: any ProcessRunning

    public init(declarations: [SecretDeclaration], environment: [String: String], root: URL, processes: any ProcessRunning) {
        self.declarations = declarations
        self.environment = environment
        self.root = root
        self.processes = processes
    }

    /// The values of `names`, each read from its provider now. Throws `HostError.secretUnavailable`
    /// naming the first that fails; an unknown name fails the same way.
    public func values(of names: some Sequence<String>) async throws(HostError) -> [String: String] {
        var values: [String: String] = [:]
        for name in names where values[name] == nil {
            guard let declaration = declarations.first(where: { $0.name == name }) else {
                throw .secretUnavailable(name: name, reason: "no provider for it under 'secrets:' in skillbook.yaml here")
            }
            values[name] = try await value(of: declaration)
        }
        return values
    }

    /// The values that can be read without running anything — environment variables and files —
    /// for masking text that is not a run's (a request sent to a model). A provider that fails is
    /// left out; a command is not run (it may ask for a passphrase, and no run needs it).
    public func valuesAtHand() -> [String] {
        declarations.compactMap { declaration in
            switch declaration.provider {
            case .environment(let variable):
                return environment[variable].map { $0.trimmingWhiteSpace() }.flatMap { $0.isEmpty ? nil : $0 }
            case .file:
                return try? readFile(declaration)
            case .command:
                return nil
            }
        }
    }

    func value(of declaration: SecretDeclaration) async throws(HostError) -> String {
        func failure(_ reason: String) -> HostError {
            .secretUnavailable(name: declaration.name, reason: "\(declaration.provider) \(reason)")
        }
        let text: String
        switch declaration.provider {
        case .environment(let variable):
            guard let value = environment[variable] else { throw failure("is not set") }
            text = value
        case .file:
            text = try readFile(declaration)
        case .command(let argv, let timeout):
            let result: ProcessResult
            do {
                result = try await processes.run(ProcessRequest(argv, workingDirectory: root.path, passedThrough: Array(environment.keys), timeout: timeout))
            } catch {
                throw failure("could not be started: \(error)")
            }
            if result.timedOut { throw failure("did not finish within \(Self.seconds(timeout))") }
            guard result.termination == .exited(0) else { throw failure("failed: it \(result.termination)") }
            text = String(decoding: result.standardOutput, as: UTF8.self)
        }
        let trimmed = text.trimmingWhiteSpace()
        guard !trimmed.isEmpty else { throw failure("gave an empty value") }
        return trimmed
    }

    /// A file provider's trimmed text, refused unless only its owner, the user, may read it.
    func readFile(_ declaration: SecretDeclaration) throws(HostError) -> String {
        guard case .file(let path) = declaration.provider else { return "" }
        func failure(_ reason: String) -> HostError {
            .secretUnavailable(name: declaration.name, reason: "\(declaration.provider) \(reason)")
        }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw failure("cannot be read (\(String(cString: strerror(errno))))") }
        guard status.st_uid == getuid() else { throw failure("is not owned by you; a secret's file must be") }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw failure("may be read by others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { throw failure("cannot be read") }
        let trimmed = String(decoding: data, as: UTF8.self).trimmingWhiteSpace()
        guard !trimmed.isEmpty else { throw failure("gave an empty value") }
        return trimmed
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
