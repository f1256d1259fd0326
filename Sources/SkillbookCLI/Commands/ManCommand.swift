import Foundation

/// `skillbook __man DIR` (hidden): writes the man pages (`man1/skillbook.1`, `man1/skillbook-run.1`,
/// …, `man5/skillbook-playbook.5`) into DIR, for `make install`, `make dist` and `make deb`.
enum ManCommand: Command {
    static let spec = CommandSpec(
        name: "__man", summary: "Write the man pages into DIR.", arguments: "DIR", options: [], positionals: 1...1,
        operands: .directory)

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let directory = URL(fileURLWithPath: arguments.positionals[0], relativeTo: invocation.currentDirectory)
        let pages = ManPage.all(SkillbookCLI.commands.map(\.spec))
        for page in pages {
            let folder = directory.appendingPathComponent("man\(page.section)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try page.text.write(to: folder.appendingPathComponent(page.fileName), atomically: true, encoding: .utf8)
        }
        invocation.console.out("wrote \(pages.count) man pages to \(directory.path)")
        return .success
    }
}
