import Foundation
import SkillbookCLI
import SkillbookTesting
import Testing

/// The man pages `skillbook __man DIR` writes: clean under `mandoc -T lint`, and for each command
/// the same options, placeholders and help as `skillbook COMMAND --help`.
@Suite struct ManPageTests {
    private func pages() async -> (TemporaryDirectory, [URL]) {
        let directory = TemporaryDirectory()
        let run = await skillbook(["__man", directory.url.appendingPathComponent("man").path], in: directory)
        #expect(run.code == 0, "\(run.err)")
        var files: [URL] = []
        for section in ["man1", "man5"] {
            let folder = directory.url.appendingPathComponent("man/\(section)")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                files.append(folder.appendingPathComponent(name))
            }
        }
        return (directory, files.sorted { $0.path < $1.path })
    }

    @Test func everyCommandHasAPageAndTheFormatHasOne() async {
        let (_, files) = await pages()
        let names = Set(files.map(\.lastPathComponent))
        for name in ["skillbook.1", "skillbook-run.1", "skillbook-runs-show.1", "skillbook-completion.1", "skillbook-playbook.5"] {
            #expect(names.contains(name))
        }
        #expect(!names.contains { $0.contains("__") })
    }

    @Test func mandocLintFindsNothing() async throws {
        let (directory, files) = await pages()
        let lint = try await runTool("mandoc", ["-T", "lint", "-W", "style"] + files.map(\.path), in: directory.url)
        // mandoc looks for the pages an `.Xr` names among the installed ones: ours are not installed
        // here, so a reference to one of them is no finding.
        let ours = Set(files.map { $0.deletingPathExtension().lastPathComponent + " " + $0.pathExtension })
        let findings = (lint.out + lint.err).split(separator: "\n").filter { line in
            guard let range = line.range(of: "STYLE: referenced manual not found: Xr ") else { return true }
            let reference = line[range.upperBound...].replacing(/\ \(\d+ times\)$/, with: "")
            return !ours.contains(String(reference))
        }
        #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
    }

    @Test func thePageOfEachCommandListsTheOptionsItsHelpLists() async throws {
        let (directory, files) = await pages()
        let help = await skillbook(["--help"], in: directory)
        let commands = help.out.components(separatedBy: "Commands:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").map { line in
                line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0]
            }
        #expect(commands.count > 20)
        for command in commands {
            let page = "skillbook-" + command.replacingOccurrences(of: " ", with: "-") + ".1"
            let file = try #require(files.first { $0.lastPathComponent == page }, "no \(page)")
            let text = try await rendered(file, in: directory)
            let commandHelp = await skillbook(command.split(separator: " ").map(String.init) + ["--help"], in: directory)
            let fromHelp = helpOptions(commandHelp.out)
            let fromPage = pageOptions(text)
            #expect(fromHelp.map(\.0) == fromPage.map(\.0), "options of '\(command)'")
            for (name, helpText) in fromHelp {
                let pageText = fromPage.first { $0.0 == name }?.1 ?? ""
                #expect(pageText == helpText, "'\(command)' \(name)")
            }
        }
    }

    /// `mandoc -T ascii` output without its overstrike (bold, underline).
    private func rendered(_ file: URL, in directory: TemporaryDirectory) async throws -> String {
        let run = try await runTool("mandoc", ["-T", "ascii", "-O", "width=200", file.path], in: directory.url)
        return run.out.replacing(/.\u{8}/, with: "")
    }

    private func squeezed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `(names and placeholder, help)` of each row of the "Options:" section of `--help`.
    private func helpOptions(_ help: String) -> [(String, String)] {
        let section = help.components(separatedBy: "Options:\n")[1].components(separatedBy: "\n\n")[0]
        var rows: [(String, String)] = []
        for line in section.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  -") {
                let parts = trimmed.components(separatedBy: "  ")
                rows.append((parts[0], squeezed(parts.dropFirst().joined(separator: " "))))
            } else if !rows.isEmpty {
                rows[rows.count - 1].1 = squeezed(rows[rows.count - 1].1 + " " + trimmed)
            }
        }
        return rows
    }

    /// The same from the rendered page: the tagged list after "The options are as follows:".
    private func pageOptions(_ page: String) -> [(String, String)] {
        guard let list = page.components(separatedBy: "The options are as follows:").dropFirst().first else { return [] }
        var rows: [(String, String)] = []
        for line in list.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty { break }  // the next section
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if line.hasPrefix("     -") {
                let parts = trimmed.components(separatedBy: "  ")
                rows.append((parts[0], squeezed(parts.dropFirst().joined(separator: " "))))
            } else if !rows.isEmpty {
                rows[rows.count - 1].1 = squeezed(rows[rows.count - 1].1 + " " + trimmed)
            }
        }
        return rows
    }
}
