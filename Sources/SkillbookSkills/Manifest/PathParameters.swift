import Foundation
public import SkillbookCore

/// Confines the `format: path` parameters of a skill that is not Skillbook's own code (a manifest
/// command, an MCP server's tool) to the allowed folders, with the same guard as the built-in file
/// skills (`PathGuard`).
///
/// Each top-level parameter whose schema says `format: path` — a string, or a list whose items do —
/// is checked before the skill runs: a relative path is taken relative to the skill's working
/// folder, or to the parameter named by `relativeTo` (itself checked). `access: write` also refuses
/// Skillbook's own state, as the built-in skills do for what they change; `access: read` (the
/// default) needs only to lie inside an allowed folder. The values passed on are unchanged.
public struct PathParameters: Sendable {
    /// The skill's environment, its current directory the skill's working folder. The guard is
    /// made from it when a call has a path to check, as the built-in file skills make theirs: the
    /// allowed folders are resolved then (not for every manifest skill each time skills load).
    let environment: SkillEnvironment

    /// The allowed folders of `environment`; relative paths relative to `workingDirectory`
    /// (`environment.currentDirectory` when `nil`).
    public init(environment: SkillEnvironment, workingDirectory: String? = nil) {
        var environment = environment
        if let workingDirectory { environment.currentDirectory = URL(fileURLWithPath: workingDirectory, isDirectory: true) }
        self.environment = environment
    }

    /// Throws a `SkillError` (kind `disallowedPath` for a path outside the allowed folders) naming the
    /// first parameter that is refused.
    public func check(_ parameters: ValueObject, schema: Schema) throws(SkillError) {
        let properties = schema.resolved.properties
        var bases: [String: String] = [:]
        var made: PathGuard?
        // Bases first, so that a path relative to one is resolved against its checked value.
        let ordered = properties.filter { $0.schema.relativeTo == nil && $0.schema.items?.relativeTo == nil }
            + properties.filter { $0.schema.relativeTo != nil || $0.schema.items?.relativeTo != nil }
        for (name, property) in ordered {
            guard let value = parameters[name] else { continue }
            let property = property.resolved
            let texts: [(String, Schema)]
            switch value {
            case .string(let text) where property.format == "path":
                texts = [(text, property)]
            case .array(let items) where property.items?.resolved.format == "path":
                let item = property.items!.resolved
                texts = items.compactMap { if case .string(let text) = $0 { (text, item) } else { nil } }
            default:
                continue
            }
            let access = property.access ?? property.items?.access ?? .read
            let baseName = property.relativeTo ?? property.items?.relativeTo
            for (text, item) in texts {
                var checked = text
                if let baseName, !text.hasPrefix("/"), !text.hasPrefix("~"), let base = bases[baseName] {
                    checked = FileOps.join(base, text)
                }
                let pathGuard = made ?? environment.pathGuard
                made = pathGuard
                let guarded: GuardedPath
                do throws(SkillError) {
                    guarded =
                        (item.access ?? access) == .write
                        ? try pathGuard.checkChangeable(checked) : try pathGuard.check(checked)
                } catch {
                    throw SkillError("parameter '\(name)': \(error.message)", kind: error.kind)
                }
                if case .string = value { bases[name] = guarded.path }
            }
        }
    }
}

/// A skill whose `format: path` parameters are checked by `PathParameters` before it runs (an MCP
/// server's tool); everything else is the wrapped skill's.
public struct PathCheckedSkill: Skill {
    public let base: any Skill
    let paths: PathParameters

    public init(_ base: any Skill, paths: PathParameters) {
        self.base = base
        self.paths = paths
    }

    public var descriptor: SkillDescriptor { base.descriptor }

    public func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        try paths.check(parameters, schema: descriptor.parameters)
        return try await base.run(parameters, context: context)
    }

    public func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        try await base.compensate(call, context: context)
    }

    public func preview(_ parameters: ValueObject) async -> CallPreview? {
        await base.preview(parameters)
    }
}
