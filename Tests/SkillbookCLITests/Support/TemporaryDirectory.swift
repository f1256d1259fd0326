import SkillbookCore
import Foundation
import SkillbookCLI
import SkillbookTesting

/// One in-process run of the CLI with its output.
struct CLIRun {
    var code: Int32
    var out: String
    var err: String

    var errLines: [String] { err.split(separator: "\n").map(String.init) }
}

/// Runs `skillbook ARGS` in-process with the state and playbooks of `directory`.
func skillbook(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:]) async -> CLIRun {
    let captured = CapturedOutput()
    let code = await SkillbookCLI.run(
        arguments + ["--state", directory.state.path, "--playbooks", directory.playbooks.path],
        console: captured.console, environment: environment, currentDirectory: directory.url)
    return CLIRun(code: code, out: captured.out, err: captured.err)
}

/// Whether `--json` output is diagnostics only (`validate --json`'s form, a summary last): what
/// `run --json` prints when nothing ran.
func onlyDiagnostics(_ out: String) -> Bool {
    let types = out.split(separator: "\n").map { line in
        ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["type"] as? String
    }
    return types.last == "summary" && types.dropLast().allSatisfy { $0 == "diagnostic" }
}
