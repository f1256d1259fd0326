import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookHost

/// `skillbook doctor [--json]`: checks what this machine and workspace need, and says how to fix
/// each thing that is not fine.
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        name: "doctor", summary: "Check the workspace, the state, the model and the libraries, and say how to fix what is wrong.",
        arguments: "", options: [Option.json.withHelp("Print one JSON object: {\"ok\", \"checks\": [{\"name\", \"status\", \"detail\", \"fix\"}]}.").spec],
        discussion: """
            Checks, in order: the workspace found from here and its skillbook.yaml; the skills (manifests and MCP
            servers, started once when their tool list is not cached); the playbooks (each validated) and their
            schedules; each MCP server (mcp:PREFIX: started, its tools compared with its cached tool list; a stale
            list is fixed by 'skillbook skills --refresh'); the state (reachable, writable, its schema version
            current: opening it migrates it, as any command would) and its journal (runs, size, oldest run); whether
            a daemon holds the state's lock; the model, when one is configured (asked for an answer under a JSON
            Schema, as the planner asks); libcurl, libpq and libmicrohttpd (loaded on first use);
            the allowed paths; the time zone; the shell completions. Each line is 'ok', 'warning' or 'failed',
            with a fix under each that is not ok. Exit code 0 when nothing failed (warnings included), 1 when a
            check failed.
            """,
        examples: ["skillbook doctor", "skillbook doctor --json"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let checks = await checks(arguments, invocation)
        let report = DoctorReport(checks: checks)
        invocation.console.writeOut(arguments[.json] ? report.json : report.text)
        return report.passed ? .success : .failure
    }

    static func checks(_ arguments: ParsedArguments, _ invocation: Invocation) async -> [DoctorCheck] {
        guard let root = WorkspaceConfiguration.find(from: invocation.currentDirectory) else {
            return [
                DoctorCheck(
                    "workspace", .failed, "no workspace in \(invocation.currentDirectory.path) or above (a folder holding Playbooks/ or skillbook.yaml)",
                    fix: "run 'skillbook new NAME' in the folder that should hold your playbooks (it creates Playbooks/NAME.yaml)")
            ]
        }
        let host: PlaybookHost
        do {
            host = try invocation.host(arguments)
        } catch {
            return [DoctorCheck("workspace", .failed, DoctorReport.describe(error), fix: "correct \(WorkspaceConfiguration.fileName) at the place shown")]
        }
        let file = root.appendingPathComponent(WorkspaceConfiguration.fileName)
        let configured = FileManager.default.fileExists(atPath: file.path) ? "with \(WorkspaceConfiguration.fileName)" : "no \(WorkspaceConfiguration.fileName): defaults"
        var checks = [DoctorCheck("workspace", .ok, "\(host.displayPath(root)) (\(configured))")]
        let state = arguments[.state] ?? invocation.environment["SKILLBOOK_STATE"]
        checks += await host.doctorChecks(database: host.configuration.persistence == nil ? nil : state)
        let console: DoctorCheck
        if let problem = HTTPServer.libraryProblem {
            console = (
                DoctorCheck(
                    "libmicrohttpd", .warning, "\(problem) (only 'skillbook serve' and --metrics need it)",
                    fix: "install it: sudo apt-get install libmicrohttpd12"))
        } else {
            console = DoctorCheck("libmicrohttpd", .ok, "loads (used by 'skillbook serve' and --metrics)")
        }
        checks.insert(console, at: (checks.firstIndex { $0.name == "libpq" } ?? checks.count - 1) + 1)
        checks.append(CompletionLocations(environment: invocation.environment).check())
        return checks
    }
}
