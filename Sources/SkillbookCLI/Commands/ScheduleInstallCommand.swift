import Foundation
import SkillbookCore
import SkillbookHost

extension Option where Value == Bool {
    static var crontab: Self { Self("--crontab", help: "A line for the user crontab.") }
    static var systemd: Self { Self("--systemd", help: "A systemd user service and timer.") }
    static var write: Self {
        Self("--write", help: "Install it: replace this workspace's line in the user crontab, or write the units to ~/.config/systemd/user.")
    }
}

extension Option where Value == String {
    static var binary: Self {
        Self("--binary", value: "PATH", help: "The skillbook executable the lines run (default: the one this command was started as).")
    }
}

/// `skillbook schedule install --crontab|--systemd [--binary PATH] [--write]`
enum ScheduleInstallCommand: Command {
    static let spec = CommandSpec(
        name: "schedule install", summary: "Print (or install) what makes cron or systemd run 'skillbook schedule tick' every minute.",
        arguments: "", options: [Option.crontab.spec, Option.systemd.spec, Option.binary.spec, Option.write.spec],
        alternatives: [[Option.crontab.spec, Option.systemd.spec]], alternativesRequired: true,
        discussion: """
            The lines name the skillbook executable — --binary PATH, else the one this command was started as
            (a name found on PATH as that PATH entry, not where a link leads), said on stderr — and the
            workspace, playbooks and state directories as absolute paths. The systemd timer is OnCalendar=minutely, AccuracySec=1s, Persistent=true; after --write run
            'systemctl --user daemon-reload && systemctl --user enable --now skillbook-tick.timer'.
            Use either this or 'skillbook daemon' for a state directory: both start each fire at most once, but
            only the daemon fires to the second.
            """,
        examples: [
            "skillbook schedule install --systemd", "skillbook schedule install --crontab --write",
            "skillbook schedule install --crontab --binary /usr/local/bin/skillbook",
        ])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        guard arguments[.crontab] != arguments[.systemd] else {
            throw UsageError(message: "pass one of --crontab or --systemd", command: spec.name)
        }
        let configuration = try invocation.host(arguments).configuration
        let executable: String
        if let given = arguments[.binary] {
            executable = HostConfiguration.resolve(given, against: invocation.currentDirectory).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: executable, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: executable)
            else {
                throw UsageError(message: "--binary: \(given) is not an executable file", command: spec.name)
            }
        } else {
            executable = Self.executable(invocation)
        }
        invocation.console.err("using the skillbook at \(executable)\(arguments[.binary] == nil ? " (choose another with --binary PATH)" : "")")
        let install = ScheduleInstall(
            executable: executable, workspace: invocation.currentDirectory.standardizedFileURL.path,
            playbooks: configuration.playbooksDirectory.standardizedFileURL.path,
            state: configuration.stateDirectory.standardizedFileURL.path)
        let console = invocation.console
        if arguments[.crontab] {
            guard arguments[.write] else {
                console.writeOut(install.crontab)
                return .success
            }
            return try CrontabWriter.install(install, console: console)
        }
        guard arguments[.write] else {
            console.out("# ~/.config/systemd/user/\(ScheduleInstall.unitName).service")
            console.writeOut(install.service)
            console.out("# ~/.config/systemd/user/\(ScheduleInstall.unitName).timer")
            console.writeOut(install.timer)
            return .success
        }
        let home = invocation.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: HostConfiguration.home(invocation.environment)).appendingPathComponent(".config")
        let directory = home.appendingPathComponent("systemd/user")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (ext, text) in [("service", install.service), ("timer", install.timer)] {
            let file = directory.appendingPathComponent("\(ScheduleInstall.unitName).\(ext)")
            try text.write(to: file, atomically: true, encoding: .utf8)
            console.out("wrote \(file.path)")
        }
        console.out("now run: systemctl --user daemon-reload && systemctl --user enable --now \(ScheduleInstall.unitName).timer")
        return .success
    }

    /// The executable this command was started as: a bare name (`skillbook`) as the first entry of
    /// `$PATH` that has it, a path made absolute (links not followed, so an upgrade behind the link
    /// is still run); else this process's (`/proc/self/exe` on Linux).
    static func executable(_ invocation: Invocation) -> String {
        let typed = CommandLine.arguments.first ?? ""
        if !typed.isEmpty, !typed.contains("/") {
            for folder in (invocation.environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
                let candidate = "\(folder)/\(typed)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        } else if !typed.isEmpty {
            let path = URL(fileURLWithPath: typed, relativeTo: invocation.currentDirectory).standardizedFileURL.path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return URL(fileURLWithPath: CommandLine.arguments[0], relativeTo: invocation.currentDirectory).standardizedFileURL.path
    }
}

/// Replaces this workspace's line in the user crontab through `crontab -l` and `crontab -` (no shell).
enum CrontabWriter {
    static func install(_ install: ScheduleInstall, console: Console) throws -> ExitCode {
        let (listed, current) = try crontab(["-l"], input: nil)
        var lines = listed == 0 ? current.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : []
        if let tag = lines.firstIndex(of: install.crontabTag) {
            lines.removeSubrange(tag..<min(tag + 2, lines.count))
        }
        while lines.last == "" { lines.removeLast() }
        let text = (lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n") + install.crontab
        let (code, output) = try crontab(["-"], input: text)
        guard code == 0 else {
            throw CommandFailure("crontab - failed (exit \(code)): \(output)", exitCode: .failure)
        }
        console.out("installed in the user crontab:")
        console.writeOut(install.crontab)
        return .success
    }

    /// Runs `crontab ARGS` from PATH with `input` on stdin; its exit code and stdout+stderr.
    static func crontab(_ arguments: [String], input: String?) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["crontab"] + arguments
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
