import Foundation
import Testing

/// Which module may import which: dependencies point one way,
/// skillbook/CLI → Console → Host → Agent/Schedule/MCP/Runtime/SQLite/Postgres/Skills/System → SQL → Core →
/// C shims. Modules of the middle layer do not import each other; the host composes them. The two
/// state backends share SQL (values, rows, the process probe), never each other. Testing (the
/// shared test doubles, `Backend`, and `PlanRunJudge`, which runs an agent's plan on the engine)
/// may import Core, Agent, Runtime, SQL, both backends and Skills; the
/// bench anything but the CLI.
/// A module not in the table (neither ours nor the toolchain's) is reported too, so that a new
/// module or dependency is placed here on purpose.
enum ImportRules {
    static let cShims: Set<String> = ["CYAML", "CSQLite", "CPostgres", "CCurl", "CSpawn", "CMicroHTTPD"]
    static let middle: Set<String> = [
        "SkillbookAgent", "SkillbookSchedule", "SkillbookMCP", "SkillbookRuntime", "SkillbookSQLite", "SkillbookSkills",
    ]
    /// What the toolchain brings; any module may import these.
    static let toolchain: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl",
        "Darwin", "Android", "WinSDK", "Synchronization", "Observation", "RegexBuilder", "os", "_Concurrency",
        "Swift",
    ]

    /// Module → the modules of this package it may import.
    static let allowed: [String: Set<String>] = {
        var table: [String: Set<String>] = [:]
        table["SkillbookCore"] = cShims
        for module in middle { table[module] = cShims.union(["SkillbookCore"]) }
        // The live adapters (processes, HTTP over libcurl) beside the middle layer, as NIOPosix
        // beside NIOCore: the built-in skills' environment defaults to them, the host composes them.
        table["SkillbookSystem"] = cShims.union(["SkillbookCore"])
        table["SkillbookSkills"]?.insert("SkillbookSystem")
        // What both SQL backends share, below them.
        table["SkillbookSQL"] = cShims.union(["SkillbookCore"])
        table["SkillbookSQLite"] = cShims.union(["SkillbookCore", "SkillbookSQL"])
        // The PostgreSQL backend sits beside the SQLite one, on the shared SQL pieces.
        table["SkillbookPostgres"] = cShims.union(["SkillbookCore", "SkillbookSQL"])
        table["SkillbookHost"] = middle.union(["SkillbookCore", "SkillbookPostgres", "SkillbookSystem"])
        // The console sits on the host (it serves the host's runs, playbooks and skills); the CLI's
        // `serve` builds it: CLI → Console → Host.
        table["SkillbookConsole"] = ["SkillbookHost", "SkillbookAgent", "SkillbookCore", "SkillbookRuntime", "CMicroHTTPD"]
        table["SkillbookCLI"] = middle.union(["SkillbookConsole", "SkillbookHost", "SkillbookCore"])
        table["skillbook"] = middle.union(["SkillbookCLI", "SkillbookHost", "SkillbookCore"])
        // Test doubles, and both state backends for the suites that run on each (`Backend`).
        table["SkillbookTesting"] = ["SkillbookCore", "SkillbookAgent", "SkillbookRuntime", "SkillbookSQL", "SkillbookSQLite", "SkillbookPostgres", "SkillbookSkills", "SkillbookSystem"]
        table["skillbook-floor"] = []
        table["SkillbookMCPTesting"] = ["SkillbookCore", "SkillbookMCP"]
        table["skillbook-mcp-testserver"] = ["SkillbookCore", "SkillbookMCP", "SkillbookMCPTesting"]
        // The bench also measures the C libraries raw (libyaml's parser: the floor of the YAML figure),
        // and its children's own peak memory (CPeakRSS, a shim no library imports).
        table["skillbook-bench"] = middle.union(["SkillbookHost", "SkillbookCore", "SkillbookTesting", "SkillbookPostgres", "SkillbookSQL", "SkillbookSystem"])
            .union(cShims)
            .union(["CPeakRSS"])
        return table
    }()

    struct Violation: Sendable, Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var message: String

        var description: String { "\(file):\(line): \(message)" }
    }

    /// The module an `import` line names (`import X`, `public import X`, `@preconcurrency import
    /// X`, `import struct X.Y`), or `nil` when the line is no import.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        words.removeFirst()
        let kinds = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
        if kinds.contains(words[0]), words.count >= 2 { words.removeFirst() }
        // A module is named by an identifier: `import { h } from "/assets/dom.js"` in the console's
        // embedded JavaScript is no Swift import.
        guard let name = words[0].split(separator: ".").first, let first = name.first, first.isLetter || first == "_" else { return nil }
        return String(name)
    }

    /// The wrong-way imports in one file's text, which belongs to `module`.
    static func violations(module: String, file: String, text: String) -> [Violation] {
        guard let permitted = allowed[module] else {
            return [Violation(file: file, line: 1, message: "module \(module) is not in the import table of ImportRules")]
        }
        var found: [Violation] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let imported = importedModule(String(line)), imported != module else { continue }
            if toolchain.contains(imported) || permitted.contains(imported) { continue }
            let known = allowed[imported] != nil || cShims.contains(imported)
            let message =
                known
                ? "\(module) must not import \(imported) (dependencies point CLI → Host → Agent/Schedule/MCP/Runtime/SQLite/Postgres/Skills → SQL → Core → C shims)"
                : "\(module) imports \(imported), which is neither a module of the import table nor the toolchain's"
            found.append(Violation(file: file, line: index + 1, message: message))
        }
        return found
    }
}

@Suite struct ImportDirectionTests {
    /// The package root, found from this file's path (`Tests/SkillbookCoreTests/Architecture/…`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under `Sources/`: its module (the folder below `Sources`), its path from
    /// the package root and its text.
    static func sourceFiles() throws -> [(module: String, file: String, text: String)] {
        let sources = root.appendingPathComponent("Sources", isDirectory: true)
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: [(module: String, file: String, text: String)] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            let relative = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            guard let module = relative.split(separator: "/").first.map(String.init) else { continue }
            found.append((module, "Sources/" + relative, try String(contentsOf: url, encoding: .utf8)))
        }
        #expect(found.count > 100, "found only \(found.count) Swift files under \(sources.path)")
        return found
    }

    @Test func everyImportUnderSourcesPointsTheRightWay() throws {
        let violations = try Self.sourceFiles().flatMap { ImportRules.violations(module: $0.module, file: $0.file, text: $0.text) }
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func aWrongWayImportIsNamedWithItsFileAndLine() {
        let text = "import Foundation\npublic import SkillbookCore\n@preconcurrency internal import SkillbookRuntime\n"
        let found = ImportRules.violations(module: "SkillbookSQLite", file: "Sources/SkillbookSQLite/X.swift", text: text)
        #expect(
            found.map(\.description) == [
                "Sources/SkillbookSQLite/X.swift:3: SkillbookSQLite must not import SkillbookRuntime (dependencies point CLI → Host → Agent/Schedule/MCP/Runtime/SQLite/Postgres/Skills → SQL → Core → C shims)"
            ])
    }

    @Test func siblingsOfTheMiddleLayerAndUpwardEdgesAreRefused() {
        #expect(ImportRules.violations(module: "SkillbookSkills", file: "f", text: "import SkillbookSQLite").count == 1)
        #expect(ImportRules.violations(module: "SkillbookPostgres", file: "f", text: "import SkillbookSQLite").count == 1)
        #expect(ImportRules.violations(module: "SkillbookSQL", file: "f", text: "import SkillbookPostgres").count == 1)
        #expect(ImportRules.violations(module: "SkillbookPostgres", file: "f", text: "import SkillbookSQL").isEmpty)
        #expect(ImportRules.violations(module: "SkillbookCore", file: "f", text: "import SkillbookRuntime").count == 1)
        #expect(ImportRules.violations(module: "SkillbookRuntime", file: "f", text: "import SkillbookHost").count == 1)
        #expect(ImportRules.violations(module: "skillbook-bench", file: "f", text: "import SkillbookCLI").count == 1)
        #expect(ImportRules.violations(module: "SkillbookHost", file: "f", text: "import SkillbookAgent").isEmpty)
        #expect(ImportRules.violations(module: "SkillbookSQLite", file: "f", text: "internal import CSQLite").isEmpty)
        #expect(ImportRules.violations(module: "SkillbookTesting", file: "f", text: "import SkillbookSkills").isEmpty)
    }

    @Test func anUnknownModuleIsReported() {
        let found = ImportRules.violations(module: "SkillbookCore", file: "f.swift", text: "\n\nimport Yams")
        #expect(found.map(\.description) == ["f.swift:3: SkillbookCore imports Yams, which is neither a module of the import table nor the toolchain's"])
        #expect(ImportRules.violations(module: "SkillbookNew", file: "g.swift", text: "").map(\.description) == [
            "g.swift:1: module SkillbookNew is not in the import table of ImportRules"
        ])
    }

    @Test func importLinesAreRecognisedInEveryForm() {
        #expect(ImportRules.importedModule("import Foundation") == "Foundation")
        #expect(ImportRules.importedModule("  public import SkillbookCore") == "SkillbookCore")
        #expect(ImportRules.importedModule("@preconcurrency import Dispatch") == "Dispatch")
        #expect(ImportRules.importedModule("import struct SkillbookCore.Value") == "SkillbookCore")
        #expect(ImportRules.importedModule("// import SkillbookRuntime") == nil)
        #expect(ImportRules.importedModule("let important = 1") == nil)
        #expect(ImportRules.importedModule(#"import { h, clear } from "/assets/dom.js";"#) == nil)
    }
}
