import Foundation
public import SkillbookCore

/// A skill declared by a manifest: its command runs through a `ProcessRunning`, never a shell.
///
/// - Argument mode: the parameters fill the `run` list (see `CommandTemplate`); the output is
///   `{ stdout, stderr, exit_code }`.
/// - `stdin: json`: the command reads `{"params": …, "context": {"run_id", "step_id",
///   "attempt"}}` on stdin and prints its output object as JSON on stdout.
/// - `undo` runs with the call's parameters and output (`${{ output.FIELD }}`); in `stdin: json`
///   mode it reads `{"params", "output", "context"}` on stdin.
///
/// A non-zero exit, a signal or the timeout is a failure carrying the exit code and stderr's
/// last lines. The command gets only PATH, HOME, LANG and the variables the manifest lists in
/// `env`. A relative command path (`./tools/report.py`) is taken relative to the manifest's
/// folder; commands run in `workingDirectory` (the folder skillbook was started in). Parameters
/// with `format: path` must lie in the allowed folders (`PathParameters`).
public struct ManifestSkill: Skill {
    public let manifest: SkillManifest
    public let descriptor: SkillDescriptor
    public let runner: any ProcessRunning
    /// Where commands run; `nil` keeps the runner's current directory.
    public let workingDirectory: String?
    /// `run[0]` as it is passed: a name (looked up on PATH when it runs) or an absolute path.
    let command: String
    let undoCommand: String?
    /// Confines the `format: path` parameters to the allowed folders; `nil` checks nothing.
    let pathParameters: PathParameters?

    /// `environment` gives the allowed folders that `format: path` parameters must lie in (see
    /// `PathParameters`); without it they are not checked.
    public init(
        manifest: SkillManifest, runner: any ProcessRunning, workingDirectory: String? = nil,
        manifestDirectory: String? = nil, environment: SkillEnvironment? = nil
    ) {
        self.manifest = manifest
        pathParameters = environment.map { PathParameters(environment: $0, workingDirectory: workingDirectory) }
        self.runner = runner
        self.workingDirectory = workingDirectory
        command = Self.commandPath(manifest.run.command, manifestDirectory: manifestDirectory)
        undoCommand = manifest.undo.map { Self.commandPath($0.command, manifestDirectory: manifestDirectory) }
        var availability = SkillDescriptor.Availability.available
        for (role, path) in [("command", command), ("undo command", undoCommand)] {
            guard let path, runner.locate(path) == nil else { continue }
            availability = .unavailable(
                reason: path.contains("/") ? "\(role) '\(path)' is not an executable file" : "\(role) '\(path)' not found on PATH")
            break
        }
        descriptor = manifest.descriptor(availability: availability)
    }

    /// A relative path with a `/` is relative to the manifest's folder; a bare name stays a name.
    static func commandPath(_ command: String, manifestDirectory: String?) -> String {
        guard command.contains("/"), !command.hasPrefix("/"), let manifestDirectory else { return command }
        return URL(fileURLWithPath: command, relativeTo: URL(fileURLWithPath: manifestDirectory, isDirectory: true))
            .standardizedFileURL.path
    }

    public func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        if case .unavailable(let reason) = descriptor.availability {
            throw SkillError("skill '\(manifest.id)' is not available here: \(reason)")
        }
        let parameters = parameters.applyingDefaults(of: manifest.parameters)
        try pathParameters?.check(parameters, schema: manifest.parameters)
        let argv = manifest.run.argv(executable: command, parameters: parameters)
        var input: Data?
        if manifest.input == .json {
            input = Data(JSONText.encode(["params": .object(parameters), "context": Self.value(context)]).utf8)
        }
        let result = try await execute(argv, input: input)
        try result.requireSuccess("command '\(manifest.run.command)'", timeout: manifest.timeout)
        guard manifest.input == .json else {
            return ["stdout": .string(result.outputText), "stderr": .string(result.errorText), "exit_code": .int(result.exitCode)]
        }
        return try Self.jsonOutput(result, command: manifest.run.command)
    }

    public func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let undo = manifest.undo, let undoCommand else {
            throw SkillError("skill '\(manifest.id)' has no 'undo' and cannot be undone")
        }
        let parameters = call.parameters.applyingDefaults(of: manifest.parameters)
        let argv = undo.argv(executable: undoCommand, parameters: parameters, output: call.output)
        var input: Data?
        if manifest.input == .json {
            input = Data(
                JSONText.encode(["params": .object(parameters), "output": call.output, "context": Self.value(context)]).utf8)
        }
        let result = try await execute(argv, input: input)
        try result.requireSuccess("undo command '\(undo.command)'", timeout: manifest.timeout)
    }

    private func execute(_ argv: [String], input: Data?) async throws -> ProcessResult {
        let request = ProcessRequest(
            argv, workingDirectory: workingDirectory, passedThrough: manifest.environment, standardInput: input,
            timeout: manifest.timeout)
        return try await SkillError.running(request, on: runner)
    }

    static func value(_ context: SkillContext) -> Value {
        ["run_id": .string(context.runID), "step_id": .string(context.stepID), "attempt": .int(context.attempt)]
    }

    /// The object a `stdin: json` command printed.
    static func jsonOutput(_ result: ProcessResult, command: String) throws(SkillError) -> Value {
        guard !result.standardOutputTruncated else {
            throw SkillError("command '\(command)' printed more than \(result.standardOutput.count) bytes; its output must be one JSON object")
        }
        let text = result.outputText
        let value: Value
        do {
            value = try JSONText.decode(text)
        } catch {
            let printed = text.trimmingWhiteSpace()
            let shown = printed.count > 200 ? "\(printed.prefix(200))…" : printed
            throw SkillError(
                "command '\(command)' did not print its output as JSON (\(error)); it printed: \(shown.isEmpty ? "nothing" : shown)")
        }
        guard case .object = value else {
            throw SkillError("command '\(command)' printed a JSON \(value.typeName); its output must be a JSON object")
        }
        return value
    }
}
