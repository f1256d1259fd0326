import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// The package root, with the shipped `Skills/`.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Issue 27 item 1: the `format: path` parameters of manifest skills (and of MCP tools) pass the
/// guard of the built-in file skills: relative to the working folder (or `relativeTo`), inside the
/// allowed folders, and `access: write` off Skillbook's own state.
@Suite struct ManifestPathGuardTests {
    /// A workspace with the shipped manifests and a file inside, and a secret outside it.
    static func workspace() throws -> (directory: TemporaryDirectory, outside: TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let outside = TemporaryDirectory()
        outside.write("secret/key.txt", "top secret\n")
        directory.write("project/a.txt", "hello\n")
        let manager = FileManager.default
        try manager.createDirectory(at: directory.url.appendingPathComponent("Skills"), withIntermediateDirectories: true)
        for manifest in try manager.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Skills").path) {
            try manager.copyItem(
                at: packageRoot.appendingPathComponent("Skills/\(manifest)"), to: directory.url.appendingPathComponent("Skills/\(manifest)"))
        }
        return (directory, outside)
    }

    static func refusal(_ parameter: String, _ path: String, _ directory: TemporaryDirectory) -> String {
        "parameter '\(parameter)': path '\(path)' is outside the allowed folders (\(directory.path), \(directory.state.path)); "
            + "pass --allow-path DIR to allow another"
    }

    @Test func everyShippedManifestRefusesAPathOutsideTheAllowedFolders() async throws {
        let (directory, outside) = try Self.workspace()
        let secret = outside.path + "/secret/key.txt"
        let calls: [(skill: String, inputs: [String], parameter: String, path: String)] = [
            ("files.checksum", ["paths=[\(secret)]"], "paths", secret),
            ("files.checksum", ["paths=[project/a.txt, ../\(outside.url.lastPathComponent)/secret/key.txt]"], "paths",
             "../\(outside.url.lastPathComponent)/secret/key.txt"),
            ("disk.usage", ["paths=[\(outside.path)/secret]"], "paths", "\(outside.path)/secret"),
            ("git.status", ["repository=\(outside.path)"], "repository", outside.path),
            ("archive.create", ["archive=\(outside.path)/stolen.tar.gz", "paths=[project]"], "archive", "\(outside.path)/stolen.tar.gz"),
            ("archive.create", ["archive=out.tar.gz", "paths=[secret]", "directory=\(outside.path)"], "directory", outside.path),
        ]
        for call in calls {
            let run = await skillbook(["call", call.skill, "--yes"] + call.inputs.flatMap { ["-i", $0] }, in: directory)
            #expect(run.code == 1, "\(call.skill) \(run.out)")
            #expect(run.err.contains(Self.refusal(call.parameter, call.path, directory)), "\(call.skill): \(run.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: outside.path + "/stolen.tar.gz"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/out.tar.gz"))
    }

    @Test func archivePathsAreTakenRelativeToItsDirectory() async throws {
        let (directory, outside) = try Self.workspace()
        let escape = "../../\(outside.url.lastPathComponent)/secret"
        let refused = await skillbook(
            ["call", "archive.create", "--yes", "-i", "archive=out.tar.gz", "-i", "paths=[\(escape)]", "-i", "directory=project"], in: directory)
        #expect(refused.code == 1)
        #expect(refused.err.contains(Self.refusal("paths", directory.path + "/project/" + escape, directory)), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/out.tar.gz"))

        let packed = await skillbook(
            ["call", "archive.create", "--yes", "-i", "archive=out.tar.gz", "-i", "paths=[a.txt]", "-i", "directory=project"], in: directory)
        #expect(packed.code == 0, "\(packed.err)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/out.tar.gz"))
    }

    @Test func aWrittenPathMayNotBeSkillbooksOwnState() async throws {
        let (directory, _) = try Self.workspace()
        // (An archive's name ends in .tar.gz, so the state's trash, not its database.)
        let trashed = directory.state.path + "/trash/x.tar.gz"
        let run = await skillbook(["call", "archive.create", "--yes", "-i", "archive=\(trashed)", "-i", "paths=[project]"], in: directory)
        #expect(run.code == 1)
        #expect(
            run.err.contains(
                "parameter 'archive': path '\(trashed)' is part of Skillbook's own state (its trash or database); file skills do not change it"),
            "\(run.err)")
        // Reading the state folder is allowed, as for files.read.
        let read = await skillbook(["call", "files.checksum", "-i", "paths=[project/a.txt]"], in: directory)
        #expect(read.code == 0, "\(read.err)")
        #expect(read.out.contains("  project/a.txt"), "\(read.out)")
    }

    @Test func accessAndRelativeToAreCheckedWhenTheManifestLoads() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "Skills/bad.yaml",
            """
            id: demo.bad
            summary: Bad path keywords.
            parameters:
              type: object
              properties:
                count: { type: integer, access: write }
                out: { type: string, format: path, access: append }
            run: [true]

            """)
        let second = directory.write(
            "Skills/bad2.yaml",
            """
            id: demo.bad2
            summary: A path relative to what is not a path.
            parameters:
              type: object
              properties:
                base: { type: string }
                names: { type: array, items: { type: string, format: path, relativeTo: base } }
            run: [true]

            """)
        let run = await skillbook(["validate"], in: directory)
        #expect(run.code == 2)
        let errors = run.errLines.filter { $0.contains(": error: ") }
        #expect(
            errors == [
                "\(file.path):6:37: error: 'access' applies to a 'format: path' string or a list of them",
                "\(file.path):7:48: error: 'access' must be read or write, not 'append'",
                "\(second.path):7:76: error: parameter 'names' is 'relativeTo' 'base', which must be another parameter with 'format: path'",
            ], "\(run.err)")
    }

    /// A stdio MCP server (JSON-RPC lines, no SDK) with one tool whose `path` says `format: path`;
    /// it records every call it gets in `calls.log`.
    static let server = #"""
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            method, ident = message.get("method"), message.get("id")
            if ident is None:
                continue
            if method == "initialize":
                result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                          "serverInfo": {"name": "sizes", "version": "1"}}
            elif method == "tools/list":
                result = {"tools": [{"name": "size", "description": "The size of a file.",
                          "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "format": "path"}},
                                          "required": ["path"]}}]}
            elif method == "tools/call":
                path = message["params"]["arguments"]["path"]
                with open("calls.log", "a") as log:
                    log.write(path + "\n")
                with open(path, "rb") as f:
                    result = {"content": [{"type": "text", "text": str(len(f.read()))}], "isError": False}
            else:
                print(json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no"}}), flush=True)
                continue
            print(json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}), flush=True)
        """#

    @Test func anMCPToolsPathParameterPassesTheSameGuard() async throws {
        let directory = TemporaryDirectory()
        let outside = TemporaryDirectory()
        outside.write("secret/key.txt", "top secret\n")
        directory.write("Skills/sizes.py", Self.server)
        directory.write("Skills/sizes.yaml", "mcp:\n  command: [python3, sizes.py]\n  prefix: sizes\n")
        directory.write("Skills/hello.txt", "hello\n")
        let secret = outside.path + "/secret/key.txt"
        let refused = await skillbook(["call", "sizes.size", "--yes", "-i", "path=\(secret)"], in: directory)
        #expect(refused.code == 1, "\(refused.out)")
        #expect(refused.err.contains(Self.refusal("path", secret, directory)), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/Skills/calls.log"))

        // Relative to the folder the server runs in (its manifest's).
        let allowed = await skillbook(["call", "sizes.size", "--yes", "-i", "path=hello.txt"], in: directory)
        #expect(allowed.code == 0, "\(allowed.err)")
        #expect(try String(contentsOfFile: directory.path + "/Skills/calls.log", encoding: .utf8) == "hello.txt\n")
    }
}
