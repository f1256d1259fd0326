import Foundation
import SkillbookCore
import SkillbookHost

/// `skillbook list`
enum ListCommand: Command {
    static let spec = CommandSpec(
        name: "list", summary: "List the playbooks in the playbooks folder.", arguments: "",
        options: [Option.json.withHelp("Print a JSON array.").spec])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let host = try invocation.host(arguments)
        await host.listUncachedMCPServers()
        let registry = try host.loadRegistry().registry
        var rows: [Value] = []
        var table: [[String]] = []
        for url in host.playbookFiles() {
            let name = url.deletingPathExtension().lastPathComponent
            let file = try host.loadPlaybook(at: url, registry: registry)
            let playbook = file.result.playbook
            let errors = file.result.diagnostics.filter { $0.severity == .error }.count
            let description = playbook?.description ?? "(\(errors) error\(errors == 1 ? "" : "s"); run 'skillbook validate')"
            rows.append([
                "name": .string(playbook?.name ?? name), "file": .string(file.displayName),
                "description": .string(description), "valid": .bool(playbook != nil),
                "steps": .int(playbook?.steps.count ?? 0),
            ])
            table.append([playbook?.name ?? name, String(playbook?.steps.count ?? 0), description])
        }
        if arguments[.json] {
            invocation.console.out(JSONText.encode(.array(rows), pretty: true))
        } else if table.isEmpty {
            invocation.console.err("no playbooks in \(host.displayPath(host.configuration.playbooksDirectory))")
        } else {
            invocation.console.writeOut(TextTable(header: ["NAME", "STEPS", "DESCRIPTION"], rows: table).rendered)
        }
        return .success
    }
}

/// Columns padded to their widest cell, without trailing spaces.
struct TextTable {
    var header: [String]
    var rows: [[String]]

    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}
