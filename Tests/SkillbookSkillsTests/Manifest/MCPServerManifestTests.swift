import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookTesting
import Testing

/// The `mcp:` key of a manifest: a server whose tools become skills.
@Suite struct MCPServerManifestTests {
    /// The server a manifest declares, and its diagnostics without the file name.
    static func server(_ yaml: String, directory: String? = nil) -> (MCPServerManifest?, [String]) {
        let (entry, diagnostics) = ManifestLoader(runner: testRunner).loadEntry(
            yaml, file: "Skills/x.yaml", path: "/w/Skills/x.yaml", manifestDirectory: directory)
        let problems = diagnostics.map { $0.description.replacingOccurrences(of: "Skills/x.yaml:", with: "") }
        guard case .server(let server) = entry else { return (nil, problems) }
        return (server, problems)
    }

    @Test func aServerIsDecodedWithEveryField() throws {
        let (decoded, problems) = Self.server(
            """
            # The calculator.
            mcp:
              command: [python3, server.py, --quiet]
              env: { LOG_LEVEL: debug, RETRIES: 3 }
              prefix: calc
              timeout: 2m
            """, directory: "/w/Skills")
        #expect(problems.isEmpty)
        let server = try #require(decoded)
        #expect(server.command == ["python3", "server.py", "--quiet"])
        #expect(server.environment == ["LOG_LEVEL": "debug", "RETRIES": "3"])
        #expect(server.passedEnvironment.isEmpty)
        #expect(server.prefix == "calc")
        #expect(server.timeout == 120)
        #expect(server.file == "Skills/x.yaml")
        #expect(server.path == "/w/Skills/x.yaml")
        #expect(server.directory == "/w/Skills")
        #expect(server.location.description == "Skills/x.yaml:2:1")
        #expect(server.prefixLocation.description == "Skills/x.yaml:5:11")
        #expect(server.program == "python3")
    }

    @Test func defaultsAPassedOnEnvironmentAndARelativeProgram() throws {
        let (decoded, problems) = Self.server(
            "mcp: { command: [./bin/server, --stdio], prefix: fs2, env: [API_KEY, HOME_DIR] }\n", directory: "/w/Skills")
        #expect(problems.isEmpty)
        let server = try #require(decoded)
        #expect(server.timeout == 30)
        #expect(server.environment.isEmpty)
        #expect(server.passedEnvironment == ["API_KEY", "HOME_DIR"])
        #expect(server.program == "/w/Skills/bin/server")
    }

    @Test func everyProblemIsReportedAtItsPosition() {
        let (server, problems) = Self.server(
            """
            id: calc.add
            mcp:
              command: python3 server.py
              prefix: Calc.X
              env: { 1BAD: x, GOOD: [a] }
              timeout: soon
              comand: [x]
            run: [true]
            """)
        #expect(server == nil)
        #expect(
            problems == [
                "1:1: error: a manifest with 'mcp' declares a server whose tools are its skills; 'id' cannot be used with it",
                "3:12: error: 'command' must be a list: the program, then its arguments, e.g. [python3, server.py] (it never goes through a shell)",
                "4:11: error: 'prefix' 'Calc.X' must be lowercase letters, digits and '_', starting with a letter (it starts every skill id)",
                "5:10: error: '1BAD' is not a valid environment variable name",
                "5:25: error: 'env.GOOD' must be text, not a list",
                "6:12: error: 'timeout' must be a positive duration such as 30, 30s, 5m or 1h",
                "7:3: error: unknown mcp key 'comand'; did you mean 'command'?",
                "8:1: error: a manifest with 'mcp' declares a server whose tools are its skills; 'run' cannot be used with it",
            ])
    }

    @Test func commandAndPrefixAreRequired() {
        #expect(
            Self.server("mcp: { timeout: 5 }\n").1 == [
                "1:1: error: 'mcp' is missing 'command' (the server program and its arguments, as a list)",
                "1:1: error: 'mcp' is missing 'prefix' (the first part of its skills' ids, such as 'calc')",
            ])
        #expect(Self.server("mcp: [python3, server.py]\n").1 == ["1:6: error: 'mcp' must be a mapping such as { command: [python3, server.py], prefix: calc }"])
        #expect(Self.server("mcp: { command: [], prefix: p }\n").1.first?.hasPrefix("1:17: error: 'command' must be a list") == true)
    }

    @Test func aFolderListsServersBesideSkillsAndRefusesARepeatedPrefix() async throws {
        try await withTemporaryDirectory { directory in
            try "mcp: { command: [python3, a.py], prefix: calc }\n".write(
                to: directory.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
            try "id: demo.one\nsummary: s\nrun: [true]\n".write(to: directory.appendingPathComponent("b.yaml"), atomically: true, encoding: .utf8)
            try "\nmcp: { command: [python3, c.py], prefix: calc }\n".write(
                to: directory.appendingPathComponent("c.yaml"), atomically: true, encoding: .utf8)
            let result = ManifestLoader(runner: testRunner).load(directory: directory) { $0.lastPathComponent }
            #expect(result.skills.map(\.manifest.id) == ["demo.one"])
            #expect(result.servers.map(\.command) == [["python3", "a.py"]])
            #expect(result.servers.first?.path == directory.appendingPathComponent("a.yaml").path)
            #expect(result.servers.first?.directory == directory.path)
            #expect(
                result.diagnostics.map(\.description) == [
                    "c.yaml:2:42: error: prefix 'calc' is already used by the MCP server declared at a.yaml:1:42; prefixes must be unique"
                ])

            // Across folders too.
            let other = directory.appendingPathComponent("more")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            try "mcp: { command: [python3, d.py], prefix: calc }\n".write(to: other.appendingPathComponent("d.yaml"), atomically: true, encoding: .utf8)
            var registry = try SkillRegistry([])
            let combined = ManifestLoader(runner: testRunner).load(directories: [directory, other], into: &registry) { $0.lastPathComponent }
            #expect(combined.servers.map(\.command) == [["python3", "a.py"]])
            #expect(combined.diagnostics.map(\.description).last == "d.yaml:1:42: error: prefix 'calc' is already used by the MCP server declared at a.yaml:1:42; prefixes must be unique")
        }
    }
}
