import Foundation
import SkillbookTesting
import Testing

/// Which shared objects a real `skillbook` process maps, as the dynamic loader itself reports them
/// (`LD_DEBUG=files` prints a "generating link map" line for every object it maps, at start or by
/// `dlopen`, to the process's stderr): networking must cost nothing to the commands that send no
/// request, and libpq nothing to those that use no PostgreSQL state. Linux only (glibc's loader).
@Suite struct StartupLibrariesTests {
    /// The objects (file names) the loader mapped, from `LD_DEBUG=files` output.
    static func mapped(_ loaderOutput: String) -> Set<String> {
        var names: Set<String> = []
        for line in loaderOutput.split(separator: "\n") where line.contains("generating link map") {
            guard let start = line.range(of: "file=")?.upperBound, let end = line[start...].firstIndex(of: " ") else { continue }
            names.insert(String(line[start..<end]).split(separator: "/").last.map(String.init) ?? "")
        }
        return names
    }

    static func networking(_ names: Set<String>) -> [String] {
        names.filter { $0.hasPrefix("libcurl") || $0.hasPrefix("libFoundationNetworking") || $0.hasPrefix("libpq") }.sorted()
    }

    /// A one-step playbook that sends nothing (a note in the local store).
    static let notePlaybook = """
        name: note
        description: Writes one note.
        steps:
          - id: note
            skill: notes.create
            with: { title: hello }

        """

    @Test func versionLoadsNoNetworking() async throws {
        #if os(Linux)
            let directory = TemporaryDirectory()
            let result = try await runSkillbook(["--version"], in: directory.url, environment: ["LD_DEBUG": "files"])
            #expect(result.code == 0)
            #expect(result.out.hasPrefix("skillbook "))
            let names = Self.mapped(result.err)
            // The loader did report: libc is always mapped.
            #expect(names.contains { $0.hasPrefix("libc.so") }, "\(result.err.prefix(2000))")
            #expect(Self.networking(names).isEmpty, "\(Self.networking(names))")
        #endif
    }

    @Test func validateLoadsNoNetworking() async throws {
        #if os(Linux)
            let directory = TemporaryDirectory()
            directory.write(
                "Playbooks/fetch.yaml",
                """
                name: fetch
                description: Reads a page.
                steps:
                  - id: page
                    skill: web.fetch
                    with: { url: "http://127.0.0.1:9/" }

                """)
            let result = try await runSkillbook(
                ["validate", "--state", directory.state.path], in: directory.url, environment: ["LD_DEBUG": "files"])
            #expect(result.code == 0, "\(result.out)")
            let names = Self.mapped(result.err)
            #expect(names.contains { $0.hasPrefix("libc.so") })
            #expect(Self.networking(names).isEmpty, "\(Self.networking(names))")
        #endif
    }

    /// The control: the same reading sees libcurl once a step sends a request.
    @Test func aWebStepLoadsLibcurlWhenItSends() async throws {
        #if os(Linux)
            try await withLocalHTTPServer { server in
                server.route("/page", .html("<title>Hi</title><p>hello</p>"))
                let directory = TemporaryDirectory()
                let playbook = directory.write(
                    "fetch.yaml",
                    """
                    name: fetch
                    description: Reads a page.
                    steps:
                      - id: page
                        skill: web.fetch
                        with: { url: "\(server.url("/page"))" }

                    """)
                let result = try await runSkillbook(
                    ["run", playbook.path, "--state", directory.state.path], in: directory.url,
                    environment: ["LD_DEBUG": "files"])
                #expect(result.code == 0, "\(result.out)\n\(result.err.suffix(2000))")
                #expect(Self.networking(Self.mapped(result.err)).contains { $0.hasPrefix("libcurl") })
                #expect(server.requests.last?.target == "/page")
            }
        #endif
    }

    @Test func aRunOnSQLiteStateLoadsNoNetworking() async throws {
        #if os(Linux)
            let directory = TemporaryDirectory()
            let playbook = directory.write("note.yaml", Self.notePlaybook)
            let result = try await runSkillbook(
                ["run", playbook.path, "--state", directory.state.path], in: directory.url, environment: ["LD_DEBUG": "files"])
            #expect(result.code == 0, "\(result.out)\n\(result.err.suffix(2000))")
            let names = Self.mapped(result.err)
            #expect(names.contains { $0.hasPrefix("libsqlite3") })
            #expect(Self.networking(names).isEmpty, "\(Self.networking(names))")
        #endif
    }

    /// The control for libpq: the same run on a PostgreSQL state loads it (on the first connection).
    @Test func aRunOnPostgresStateLoadsLibpq() async throws {
        #if os(Linux)
            let directory = TemporaryDirectory()
            let playbook = directory.write("note.yaml", Self.notePlaybook)
            let url = try await PostgresCluster.freshDatabase()
            let result = try await runSkillbook(
                ["run", playbook.path, "--state", url], in: directory.url, environment: ["LD_DEBUG": "files"])
            #expect(result.code == 0, "\(result.out)\n\(result.err.suffix(2000))")
            let names = Self.mapped(result.err)
            #expect(names.contains("libpq.so.5"), "\(names.sorted())")
            #expect(!names.contains { $0.hasPrefix("libcurl") }, "\(names.sorted())")
        #endif
    }
}
