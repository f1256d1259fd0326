import Foundation
import SkillbookTesting
import Testing

/// `packaging/install.sh`, what `make install`, `make dist` and `make deb` run, with the debug
/// binary (the release build is `make check-dist`'s, outside `make test`).
@Suite struct InstallScriptTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func installsEverythingUnderDestdirAndPrefixAndUninstallRemovesIt() async throws {
        let directory = TemporaryDirectory()
        let script = root.appendingPathComponent("packaging/install.sh").path
        let environment = ["PREFIX": "/opt/sb", "DESTDIR": directory.path + "/stage"]
        let install = try await runTool("sh", [script, try builtExecutable().path], in: directory.url, environment: environment)
        #expect(install.code == 0, "\(install.err)")
        let prefix = directory.url.appendingPathComponent("stage/opt/sb")
        let files = (FileManager.default.enumerator(atPath: prefix.path)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix("/") }.filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        for expected in [
            "bin/skillbook", "share/man/man1/skillbook.1", "share/man/man1/skillbook-run.1", "share/man/man5/skillbook-playbook.5",
            "share/bash-completion/completions/skillbook", "share/zsh/site-functions/_skillbook", "share/fish/vendor_completions.d/skillbook.fish",
            "lib/systemd/user/skillbook-daemon.service", "lib/systemd/user/skillbook-serve.service", "share/doc/skillbook/LICENSE",
        ] {
            #expect(files.contains(expected), "\(expected)")
        }
        let daemon = try String(contentsOf: prefix.appendingPathComponent("lib/systemd/user/skillbook-daemon.service"), encoding: .utf8)
        #expect(daemon.contains("\nExecStart=/opt/sb/bin/skillbook daemon"))
        let serve = try String(contentsOf: prefix.appendingPathComponent("lib/systemd/user/skillbook-serve.service"), encoding: .utf8)
        #expect(serve.contains("\nExecStart=/opt/sb/bin/skillbook serve\n"))
        let uninstall = try await runTool("sh", [script, "--uninstall", try builtExecutable().path], in: directory.url, environment: environment)
        #expect(uninstall.code == 0)
        let left = FileManager.default.enumerator(atPath: prefix.path)?.allObjects.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(left == [])
    }
}
