import Foundation
public import SkillbookCore
import SkillbookSkills

/// The skills a host runs with, and what loading the manifests had to say.
public struct LoadedRegistry: Sendable {
    public var registry: SkillRegistry
    /// Warnings of the manifest files (errors are thrown instead).
    public var warnings: [Diagnostic]
    /// The manifest files' text by display name, so a diagnostic prints with its line.
    public var sources: [String: String]
    /// The warnings (also in `warnings`) of MCP servers whose skills are missing because their
    /// tools could not be listed: a run reports these even where manifest warnings are not shown,
    /// since a step of such a server fails as an unknown skill.
    public var serversWithoutSkills: [Diagnostic] = []
}

extension PlaybookHost {
    /// The built-in skills, the manifest skills of the configuration's skill folders, and the
    /// skills of their MCP servers from the servers' cached tool lists (this never starts a
    /// server: `listUncachedMCPServers()` fills the caches first where needed).
    ///
    /// Throws `missingSkillsFolder` for a folder that does not exist, `invalidManifests` with every
    /// manifest problem when any is an error, `invalidRegistry` for a duplicate id.
    public func loadRegistry() throws(HostError) -> LoadedRegistry {
        try finishRegistry(prepareRegistry())
    }

    /// `loadRegistry()` after listing the MCP servers that have no cached tool list (as
    /// `listUncachedMCPServers()` does), the manifests read once for both.
    public func loadRegistryListingServers() async throws(HostError) -> LoadedRegistry {
        let prepared = try prepareRegistry()
        await listUncached(prepared.manifests.servers)
        return try finishRegistry(prepared)
    }

    /// The built-in skills with the manifest skills of the skill folders, and what loading the
    /// manifests found (their MCP servers not registered yet).
    private func prepareRegistry() throws(HostError) -> (registry: SkillRegistry, manifests: ManifestLoader.Result) {
        let configuration = configuration
        for directory in configuration.skillDirectories where !HostConfiguration.isDirectory(directory) {
            let base = configuration.currentDirectory.standardizedFileURL.path
            let path = directory.standardizedFileURL.path
            throw .missingSkillsFolder(path: path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path)
        }
        let runner = processRunner
        let skills = skillEnvironment
        var registry: SkillRegistry
        do throws(SkillRegistry.RegistryError) {
            registry = try SkillRegistry(BuiltinSkills.all(environment: skills))
        } catch {
            throw .invalidRegistry(error)
        }
        let loader = ManifestLoader(runner: runner, workingDirectory: configuration.currentDirectory.path, environment: skills)
        let manifests = loader.load(directories: configuration.skillDirectories, into: &registry, displayPath: displayPath)
        return (registry, manifests)
    }

    /// What the built-in skills share, and the allowed folders of every skill's paths.
    var skillEnvironment: SkillEnvironment {
        SkillEnvironment(
            stateDirectory: configuration.stateDirectory, currentDirectory: configuration.currentDirectory,
            allowedRoots: [configuration.currentDirectory, configuration.stateDirectory] + configuration.allowedPaths,
            clock: configuration.clock, processes: processRunner, stores: persistence.stores)
    }

    /// Registers the MCP servers' skills from their cached tool lists; throws the manifests' errors.
    private func finishRegistry(_ prepared: (registry: SkillRegistry, manifests: ManifestLoader.Result)) throws(HostError) -> LoadedRegistry {
        var registry = prepared.registry
        let manifests = prepared.manifests
        var diagnostics = manifests.diagnostics
        var withoutSkills: [Diagnostic] = []
        if !diagnostics.hasErrors {
            withoutSkills = registerMCPSkills(of: manifests.servers, into: &registry, runner: processRunner, diagnostics: &diagnostics)
            diagnostics = diagnostics.sortedByLocation()
        }
        if diagnostics.hasErrors {
            throw .invalidManifests(diagnostics: diagnostics, sources: manifests.sources)
        }
        return LoadedRegistry(registry: registry, warnings: diagnostics, sources: manifests.sources, serversWithoutSkills: withoutSkills)
    }

    /// The registry (after listing the MCP servers that have no cached tool list), its manifest
    /// warnings reported to `onNotice`, and the servers left without skills as `diagnostics`.
    func registry(_ onNotice: HostNoticeHandler) async throws(HostError) -> SkillRegistry {
        let loaded = try await loadRegistryListingServers()
        if !loaded.warnings.isEmpty { onNotice(.manifestWarnings(loaded.warnings, sources: loaded.sources)) }
        if !loaded.serversWithoutSkills.isEmpty { onNotice(.diagnostics(loaded.serversWithoutSkills, sources: loaded.sources)) }
        return loaded.registry
    }
}

extension PlaybookHost {
    /// The registry, its manifest warnings reported to `onNotice` as `manifestWarnings` (from
    /// cached tool lists only: call `listUncachedMCPServers()` first to fill them).
    public func loadRegistry(reporting onNotice: HostNoticeHandler) throws(HostError) -> SkillRegistry {
        let loaded = try loadRegistry()
        if !loaded.warnings.isEmpty { onNotice(.manifestWarnings(loaded.warnings, sources: loaded.sources)) }
        return loaded.registry
    }
}
