import Foundation
import SkillbookCore
import SkillbookHost

/// `skillbook validate [PATH…]`
enum ValidateCommand: Command {
    static let spec = CommandSpec(
        name: "validate", summary: "Check playbooks without running anything.", arguments: "[PATH...]",
        options: [], positionals: 0...Int.max,
        discussion: """
            Checks YAML syntax, keys, skills, parameters against each skill's schema, and every
            ${{ … }} expression; manifest skills are checked as they load (their warnings print too). PATH is a playbook file or a folder of them; with no PATH, every
            playbook in the playbooks folder. Problems print as file:line:column: error: message.
            The skills of an MCP server (an 'mcp:' manifest) come from its tool list cached in the state
            folder; when there is none yet, validate starts the server once to list its tools.
            Exit code 0 when all are valid, 2 when any has an error.
            """,
        examples: ["skillbook validate", "skillbook validate Playbooks/morning-briefing.yaml"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> Int32 {
        let host = invocation.host(arguments)
        await host.listUncachedMCPServers()
        let registry = try host.loadRegistry(reporting: invocation.notices(manifestWarnings: true))
        var files: [URL] = []
        if arguments.positionals.isEmpty {
            files = host.playbookFiles()
            if files.isEmpty {
                throw UsageError(message: "no playbooks in \(host.displayPath(host.configuration.playbooksDirectory))", command: "validate")
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
                if found.isEmpty {
                    throw UsageError(message: "no playbooks in \(host.displayPath(url))", command: "validate")
                }
                files += found
            } else {
                files.append(url)
            }
        }
        var failed = 0
        for url in files {
            let file = try host.loadPlaybook(at: url, registry: registry)
            DiagnosticPrinter(console: invocation.console, sources: [file.displayName: file.text])
                .print(file.result.diagnostics)
            if file.result.playbook == nil {
                failed += 1
            } else {
                invocation.console.out("\(file.displayName): ok")
            }
        }
        if failed > 0 {
            invocation.console.err("\(failed) of \(files.count) playbook\(files.count == 1 ? "" : "s") failed validation")
            return 2
        }
        return 0
    }
}
