import Foundation
import SkillbookCore
import SkillbookHost

/// `skillbook validate [PATH…] [--json]`
enum ValidateCommand: Command {
    static let spec = CommandSpec(
        name: "validate", summary: "Check playbooks without running anything.", arguments: "[PATH...]",
        options: [Option.json.withHelp("Print one JSON object per diagnostic, then a summary, on stdout.").spec],
        positionals: 0...Int.max,
        discussion: """
            Checks YAML syntax, keys, skills, parameters against each skill's schema, and every
            ${{ … }} expression; manifest skills are checked as they load (their warnings print too). PATH is a playbook file or a folder of them; with no PATH, every
            playbook in the playbooks folder. Problems print as file:line:column: error: message.
            The skills of an MCP server (an 'mcp:' manifest) come from its tool list cached in the state
            folder; when there is none yet, validate starts the server once to list its tools.
            Exit code 0 when all are valid, 2 when any has an error. With --json, each diagnostic is a line
            {"type":"diagnostic","file","line","column","severity","message","fix"} and the last line is
            {"type":"summary","files","failed","errors","warnings"}.
            """,
        examples: ["skillbook validate", "skillbook validate Playbooks/morning-briefing.yaml", "skillbook validate --json"],
        operands: .file)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        // A saved plan that names the workspace it needs is checked against that workspace.
        var start: URL?
        for path in arguments.positionals where HostConfiguration.declaredWorkspace(ofPlaybookAt: HostConfiguration.resolve(path, against: invocation.currentDirectory)) != nil {
            start = try invocation.workspaceStart(forPlaybook: path, command: "validate")
            break
        }
        let host = try invocation.host(arguments, from: start)
        let json = arguments[.json]
        guard let loaded = try await registry(host, json: json, console: invocation.console) else { return .usage }
        var diagnostics = loaded.warnings
        if !json { DiagnosticPrinter(console: invocation.console, sources: loaded.sources).print(loaded.warnings) }
        var files: [URL] = []
        if arguments.positionals.isEmpty {
            files = host.playbookFiles()
            let folder = host.configuration.playbooksDirectory
            if files.isEmpty {
                // An empty Playbooks/ is nothing to check, not a mistake; a missing one is.
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw UsageError(message: "no playbooks in \(host.displayPath(folder))", command: "validate")
                }
                invocation.console.err("nothing to check: \(host.displayPath(folder)) holds no playbooks")
            }
        }
        for path in arguments.positionals {
            var isDirectory: ObjCBool = false
            let url = host.file(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw UsageError(message: "no such file or folder '\(path)'", command: "validate")
            }
            if isDirectory.boolValue {
                let found = host.playbookFiles(in: url)
                if found.isEmpty { invocation.console.err("nothing to check: \(host.displayPath(url)) holds no playbooks") }
                files += found
            } else {
                files.append(url)
            }
        }
        var failed = 0
        for url in files {
            let file = try host.loadPlaybook(at: url, registry: loaded.registry)
            diagnostics += file.result.diagnostics
            if file.result.playbook == nil { failed += 1 }
            if json { continue }
            DiagnosticPrinter(console: invocation.console, sources: [file.displayName: file.text])
                .print(file.result.diagnostics)
            if file.result.playbook != nil { invocation.console.out("\(file.displayName): ok") }
        }
        if json {
            invocation.console.writeOut(DiagnosticJSON.lines(diagnostics, files: files.count, failed: failed))
            return failed > 0 ? .usage : .success
        }
        if failed > 0 {
            invocation.console.err("\(failed) of \(files.count) playbook\(files.count == 1 ? "" : "s") failed validation")
            return .usage
        }
        return .success
    }

    /// The registry, after listing the MCP servers that have no cached tool list; with `json`,
    /// manifest errors print as JSON lines and give `nil`.
    static func registry(_ host: PlaybookHost, json: Bool, console: Console) async throws -> LoadedRegistry? {
        do {
            return try await host.loadRegistryListingServers()
        } catch let error {
            guard json, case .invalidManifests(let diagnostics, _) = error else { throw error }
            console.writeOut(DiagnosticJSON.lines(diagnostics, files: 0, failed: 0))
            return nil
        }
    }
}
