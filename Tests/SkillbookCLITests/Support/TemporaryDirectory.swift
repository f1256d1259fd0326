import SkillbookCore
import Foundation
import SkillbookCLI

/// A fresh folder under the system temp directory, removed when the test is done with it.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var path: String { url.path }
    var state: URL { url.appendingPathComponent("state") }
    var playbooks: URL { url.appendingPathComponent("Playbooks") }

    @discardableResult
    func write(_ name: String, _ text: String) -> URL {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}

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
