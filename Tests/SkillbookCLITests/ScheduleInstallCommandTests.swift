import Foundation
import SkillbookTesting
import Testing

/// `schedule install` prints lines that run `schedule tick` every minute with absolute paths.
@Suite struct ScheduleInstallCommandTests {
    @Test func crontabLineRunsTickEveryMinuteWithAbsolutePathsQuoted() async {
        let directory = TemporaryDirectory()
        let run = await skillbook(["schedule", "install", "--crontab"], in: directory)
        #expect(run.code == 0)
        let lines = run.out.split(separator: "\n").map(String.init)
        let workspace = directory.url.standardizedFileURL.path
        #expect(lines.first == "# skillbook schedule tick for \(workspace)")
        #expect(lines.count == 2)
        #expect(lines[1].hasPrefix("* * * * * cd '\(workspace)' && '/"))
        #expect(
            lines[1].hasSuffix(
                "' 'schedule' 'tick' '--playbooks' '\(workspace)/Playbooks' '--state' '\(workspace)/state' >> '\(workspace)/state/tick.log' 2>&1"))
    }

    @Test func systemdUnitsAreMinutelyToTheSecondAndPassSystemdAnalyzeVerify() async throws {
        let directory = TemporaryDirectory()
        let run = await skillbook(["schedule", "install", "--systemd"], in: directory)
        #expect(run.code == 0)
        #expect(run.out.contains("[Timer]\nOnCalendar=minutely\nAccuracySec=1s\nPersistent=true\n"))
        let workspace = directory.url.standardizedFileURL.path
        #expect(run.out.contains("WorkingDirectory=\(workspace)\n"))
        #expect(run.out.contains("\" \"schedule\" \"tick\" \"--playbooks\" \"\(workspace)/Playbooks\" \"--state\" \"\(workspace)/state\"\n"))

        let written = await skillbook(["schedule", "install", "--systemd", "--write"], in: directory, environment: ["HOME": directory.path])
        #expect(written.code == 0)
        let units = directory.url.appendingPathComponent(".config/systemd/user")
        let service = units.appendingPathComponent("skillbook-tick.service")
        let timer = units.appendingPathComponent("skillbook-tick.timer")
        #expect(written.out.hasPrefix("wrote \(service.path)\nwrote \(timer.path)\n"))
        // The printed units name this test runner as the executable; make them name the real one.
        let text = try String(contentsOf: service, encoding: .utf8)
        let exec = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=\"") })
        let binary = try builtExecutable().path
        try text.replacingOccurrences(of: String(exec.split(separator: " ")[0]), with: "ExecStart=\"\(binary)\"")
            .write(to: service, atomically: true, encoding: .utf8)

        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else { return }
        let verify = try await runProgram(
            URL(fileURLWithPath: analyze), ["verify", service.path, timer.path],
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": directory.url.appendingPathComponent(".config").path])
        let said = verify.out + verify.err
        #expect(verify.code == 0, "\(said)")
        #expect(!said.contains("skillbook-tick"), "\(said)")
    }

    @Test func oneOfCrontabOrSystemdIsRequired() async {
        let run = await skillbook(["schedule", "install"], in: TemporaryDirectory())
        #expect(run.code == 2)
        #expect(run.err.contains("pass one of --crontab or --systemd"))
    }

    /// Issue 27 friction: the lines run the executable --binary names, and stderr says which one
    /// is used; one that is not an executable file is refused.
    @Test func binaryChoosesTheExecutableAndTheChoiceIsSaid() async throws {
        let directory = TemporaryDirectory()
        let binary = directory.write("bin/skillbook", "#!/bin/sh\n")
        chmod(binary.path, 0o755)
        let run = await skillbook(["schedule", "install", "--crontab", "--binary", "bin/skillbook"], in: directory)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err == "using the skillbook at \(binary.standardizedFileURL.path)\n")
        let workspace = directory.url.standardizedFileURL.path
        #expect(run.out.contains("* * * * * cd '\(workspace)' && '\(binary.standardizedFileURL.path)' 'schedule' 'tick' "), "\(run.out)")

        let plain = await skillbook(["schedule", "install", "--crontab"], in: directory)
        #expect(plain.err.hasPrefix("using the skillbook at /"), "\(plain.err)")
        #expect(plain.err.hasSuffix(" (choose another with --binary PATH)\n"), "\(plain.err)")

        let text = directory.write("notes.txt", "x")
        let refused = await skillbook(["schedule", "install", "--crontab", "--binary", text.path], in: directory)
        #expect(refused.code == 2)
        #expect(refused.errLines.first == "skillbook: error: --binary: \(text.path) is not an executable file", "\(refused.err)")
    }
}

