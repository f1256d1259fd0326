public import SkillbookCore

/// A manifest that declares an MCP server instead of a command:
/// `mcp: { command: [python3, server.py], env: {…}, prefix: calc, timeout: 30s }`. Every tool of
/// the server becomes a skill `PREFIX.TOOL`. This module only reads the declaration; the host
/// turns it into skills with an MCP client.
public struct MCPServerManifest: Sendable, Hashable {
    /// The manifest file as messages name it.
    public var file: String
    /// The manifest file's absolute path (part of the tool-list cache's key); `file` when unknown.
    public var path: String
    /// Where the `mcp` key is: warnings about the server and its tools point here.
    public var location: SourceLocation
    /// The program and its arguments (never through a shell). A relative program path with a `/`
    /// (`./server.py`) is relative to the manifest's folder, where the server also runs.
    public var command: [String]
    /// Variables set for the server (besides PATH, HOME and LANG; nothing else is inherited).
    public var environment: [String: String]
    /// Names of variables passed on from Skillbook's own environment when set there (`env: [API_KEY]`).
    public var passedEnvironment: [String]
    /// The first part of the skills' ids (`calc` → `calc.add`).
    public var prefix: String
    /// Where the prefix is written: a skill id that collides with another skill's is reported here.
    public var prefixLocation: SourceLocation
    /// Seconds the server may take to answer one request (its start, a tool list, a call).
    public var timeout: Double
    /// The folder of the manifest file: the server's working directory, and the base of a
    /// relative program path. `nil` keeps the current directory.
    public var directory: String?

    public static let defaultTimeout: Double = 30

    public init(
        file: String, path: String? = nil, location: SourceLocation, command: [String], environment: [String: String] = [:],
        passedEnvironment: [String] = [], prefix: String, prefixLocation: SourceLocation? = nil,
        timeout: Double = MCPServerManifest.defaultTimeout, directory: String? = nil
    ) {
        self.file = file
        self.path = path ?? file
        self.location = location
        self.command = command
        self.environment = environment
        self.passedEnvironment = passedEnvironment
        self.prefix = prefix
        self.prefixLocation = prefixLocation ?? location
        self.timeout = timeout
        self.directory = directory
    }

    /// The program to start: a relative path with a `/` is taken in the manifest's folder, a bare
    /// name is looked up on PATH.
    public var program: String {
        ManifestSkill.commandPath(command[0], manifestDirectory: directory)
    }
}

/// Decodes the `mcp` key of a manifest, reporting every problem at its position.
public struct MCPServerManifestDecoder: Sendable {
    public static let keys = ["command", "env", "prefix", "timeout"]

    public init() {}

    /// `root` is the whole manifest, a mapping with the key `mcp`, which must be its only key.
    public func decode(_ root: YAMLNode, file: String, diagnostics: inout [Diagnostic]) -> MCPServerManifest? {
        guard let pairs = root.mapping, let key = pairs.first(where: { $0.key.scalar == "mcp" }) else { return nil }
        var context = YAMLFieldReader(diagnostics: diagnostics)
        defer { diagnostics = context.diagnostics }
        for pair in pairs where pair.key.scalar != "mcp" {
            context.error(
                "a manifest with 'mcp' declares a server whose tools are its skills; '\(pair.key.scalar ?? "")' cannot be used with it",
                at: pair.key.location)
        }
        let node = key.value
        guard let fields = node.mapping else {
            context.error("'mcp' must be a mapping such as { command: [python3, server.py], prefix: calc }", at: node.location)
            return nil
        }
        var command: [String] = []
        var environment: [String: String] = [:]
        var passed: [String] = []
        var prefix: (text: String, location: SourceLocation)?
        var timeout = MCPServerManifest.defaultTimeout
        for pair in fields {
            guard let name = pair.key.scalar else { continue }
            let value = pair.value
            switch name {
            case "command":
                guard let items = value.sequence, !items.isEmpty else {
                    context.error(
                        "'command' must be a list: the program, then its arguments, e.g. [python3, server.py] "
                            + "(it never goes through a shell)",
                        at: value.location)
                    continue
                }
                command = context.stringList(value, "command")
            case "env":
                (environment, passed) = context.serverEnvironment(value)
            case "prefix":
                guard let text = context.string(value, "prefix") else { continue }
                guard SkillDescriptor.isValidID("\(text).tool"), !text.contains("."), !text.contains("@") else {
                    context.error(
                        "'prefix' '\(text)' must be lowercase letters, digits and '_', starting with a letter (it starts every skill id)",
                        at: value.location)
                    continue
                }
                prefix = (text, value.location)
            case "timeout":
                timeout = context.duration(value, "timeout") ?? timeout
            default:
                context.unknownKey(pair.key, name, in: "mcp", known: Self.keys)
            }
        }
        if node["command"] == nil {
            context.error("'mcp' is missing 'command' (the server program and its arguments, as a list)", at: key.key.location)
        }
        if node["prefix"] == nil {
            context.error("'mcp' is missing 'prefix' (the first part of its skills' ids, such as 'calc')", at: key.key.location)
        }
        guard let prefix, !command.isEmpty, !context.diagnostics.hasErrors else { return nil }
        return MCPServerManifest(
            file: file, location: key.key.location, command: command, environment: environment, passedEnvironment: passed,
            prefix: prefix.text, prefixLocation: prefix.location, timeout: timeout)
    }
}

extension YAMLFieldReader {
    /// `env` of a server: a mapping of names to values to set, or a list of names to pass on.
    fileprivate mutating func serverEnvironment(_ node: YAMLNode) -> (set: [String: String], passed: [String]) {
        if node.sequence != nil {
            let names = stringList(node, "env")
            for (index, name) in names.enumerated() where !ManifestDecoder.isVariableName(name) {
                error("'\(name)' is not a valid environment variable name", at: node.sequence?[index].location ?? node.location)
            }
            return ([:], names)
        }
        guard let entries = node.mapping else {
            error(
                "'env' must be a mapping of variables to set ({ LOG_LEVEL: debug }) or a list of variables to pass on ([API_KEY])",
                at: node.location)
            return ([:], [])
        }
        var values: [String: String] = [:]
        for entry in entries {
            guard let name = entry.key.scalar, ManifestDecoder.isVariableName(name) else {
                error("'\(entry.key.scalar ?? "")' is not a valid environment variable name", at: entry.key.location)
                continue
            }
            guard let text = entry.value.scalar else {
                error("'env.\(name)' must be text, not a \(entry.value.kindName)", at: entry.value.location)
                continue
            }
            values[name] = text
        }
        return (values, [])
    }
}
