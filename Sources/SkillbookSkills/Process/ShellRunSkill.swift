import Foundation
public import SkillbookCore

/// `shell.run`: runs one program with an argument list — never a shell string.
///
/// The program is found on `PATH` (or given as a path), runs in `cwd` with a clean environment
/// (`PATH`, `HOME`, `LANG` and the `env` given), and its stdout and stderr come back as text (at
/// most 1 MiB each). A non-zero exit, a signal or the timeout is a failure carrying the exit code
/// and the last lines of stderr.
///
/// **Reversibility is per call.** A call that gives `undo` (another argument list) is undone by
/// running it; a call without `undo` cannot be undone. The descriptor says `reversible: true`,
/// because the engine compensates only skills that say so — with `false`, `undo` would never
/// run and the checker would warn about every `shell.run` as irreversible. The price: for a call
/// without `undo`, `compensate` fails with "shell.run without 'undo' cannot be undone", which the
/// engine reports like any failed compensation (the run ends `rollback_incomplete`, naming the
/// step), and dry-run's "can be rolled back" is optimistic for such calls. A playbook can also
/// give the step `rollback:` steps instead.
public struct ShellRunSkill: Skill {
    public let runner: any ProcessRunning

    /// The longest `timeout` a call may ask for, in seconds.
    public static let maximumTimeout: Double = 3600
    public static let defaultTimeout: Double = 60

    public init(runner: any ProcessRunning) {
        self.runner = runner
    }

    public let descriptor = SkillDescriptor(
        id: "shell.run",
        title: "Run a command",
        summary: "Runs one program with a list of arguments (argv, the program first) — never through a shell, so "
            + "quotes, $, ; and * in arguments are plain text — and returns { stdout, stderr, exit_code }. It runs in "
            + "cwd with only PATH, HOME, LANG and the given env variables, and is stopped after timeout seconds. A "
            + "non-zero exit is a failure. Asks before running. It can be undone only when undo (another argument "
            + "list, run on rollback) is given.",
        examples: [
            "run the command", "execute this program", "run a program with these arguments",
            "run ls in that folder", "run make test in {cwd}", "run the tests in {cwd}", "运行命令", "执行这个程序",
            "在{cwd}里运行 make test", "在{cwd}目录下跑一下脚本",
        ],
        tags: ["shell", "process", "command"],
        kind: .action,
        confirm: true,
        parameters: .object(
            [
                "argv": .array(
                    .string("One argument, passed exactly as written."),
                    "The program and its arguments, e.g. [\"git\", \"-C\", \"repo\", \"status\"]. The program is a "
                        + "name found on PATH or a path.",
                    minItems: 1),
                "cwd": .string("The folder to run in (default: the current folder).", minLength: 1, format: "path"),
                "env": .freeObject(
                    "Environment variables to set, name → text. Nothing else from the environment is passed on "
                        + "except PATH, HOME and LANG."),
                "timeout": Schema(
                    type: .number, description: "Seconds before the program is stopped (default 60, at most 3600).",
                    defaultValue: .int(Int(defaultTimeout)), minimum: 0.001, maximum: maximumTimeout),
                "undo": .array(
                    .string("One argument."),
                    "A program and arguments that undo this call, run (in the same cwd and env) on rollback.",
                    minItems: 1),
            ],
            required: ["argv"]),
        output: .object(
            [
                "stdout": .string("What the program printed (at most 1 MiB is kept)."),
                "stderr": .string("What the program printed as errors (at most 1 MiB is kept)."),
                "exit_code": .integer("The exit status: 0, as a non-zero exit is a failure."),
            ],
            required: ["stdout", "stderr", "exit_code"]),
        // The runner's own timeout (at most `maximumTimeout`) stops the program first, with a
        // clearer message than the engine's.
        timeout: maximumTimeout + 30,
        reversible: true, undoReads: [])

    public func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let argv = try Self.argumentList(parameters["argv"], name: "argv")
        let request = try Self.request(argv, parameters)
        let result = try await SkillError.running(request, on: runner)
        try result.requireSuccess("command '\(argv[0])'", timeout: request.timeout)
        return ["stdout": .string(result.outputText), "stderr": .string(result.errorText), "exit_code": .int(result.exitCode)]
    }

    /// Runs the call's `undo` list with the call's `cwd`, `env` and `timeout`.
    public func compensate(_ call: CompletedCall, context: SkillContext) async throws {
        guard let undo = call.parameters["undo"], undo != .null else {
            throw SkillError("shell.run without 'undo' cannot be undone")
        }
        let parameters = call.parameters.applyingDefaults(of: descriptor.parameters)
        let argv = try Self.argumentList(undo, name: "undo")
        let request = try Self.request(argv, parameters)
        let result = try await SkillError.running(request, on: runner)
        try result.requireSuccess("undo command '\(argv[0])'", timeout: request.timeout)
    }

    static func request(_ argv: [String], _ parameters: ValueObject) throws(SkillError) -> ProcessRequest {
        var environment: [String: String] = [:]
        if let env = parameters["env"], env != .null {
            guard let object = env.objectValue else { throw SkillError("'env' must be an object of name → text") }
            for (name, value) in object {
                switch value {
                case .string, .int, .double, .bool: environment[name] = value.interpolatedText
                default: throw SkillError("env variable '\(name)' must be text, not \(value.typeName)")
                }
            }
        }
        let timeout = min(parameters["timeout"]?.doubleValue ?? defaultTimeout, maximumTimeout)
        return ProcessRequest(
            argv, workingDirectory: parameters["cwd"]?.stringValue, environment: environment, timeout: timeout)
    }

    static func argumentList(_ value: Value?, name: String) throws(SkillError) -> [String] {
        guard let items = value?.arrayValue, !items.isEmpty else {
            throw SkillError("'\(name)' must be a non-empty list of arguments, the program first")
        }
        let arguments = items.compactMap(\.stringValue)
        guard arguments.count == items.count else { throw SkillError("every argument in '\(name)' must be text") }
        guard !arguments[0].isEmpty else { throw SkillError("the program (first element of '\(name)') is empty") }
        return arguments
    }
}
