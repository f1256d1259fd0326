import Foundation
import Testing

/// Where the test programs are: the package's build folder, the fixtures, the Python of
/// `.build/venv` (which `make test` creates with the `mcp` SDK).
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static func fixture(_ name: String) -> String { "\(packageRoot)/Tests/SkillbookMCPTests/Fixtures/\(name)" }

    /// The demo MCP server executable (built with the tests).
    static var testServer: String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path,
            "\(packageRoot)/.build/debug",
        ].map { "\($0)/skillbook-mcp-testserver" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }

    /// The Python with the MCP SDK; the test fails with how to get it when it is missing.
    static func python() throws -> String {
        let python = "\(packageRoot)/.build/venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("\(python) is missing: run 'make venv' (or 'make test', which creates it with PyPI 'mcp')")
            throw CancellationError()
        }
        return python
    }

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "skillbook-mcp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
