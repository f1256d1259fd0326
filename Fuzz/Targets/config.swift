// fuzz-modules: Core SQL SQLite Postgres System Skills Runtime Agent Schedule MCP Host
import Foundation
import SkillbookCore
import SkillbookSkills

@testable import SkillbookHost

/// `skillbook.yaml` and skill manifests: the same text is read as a workspace file (every key's
/// reader) and as a manifest (a command skill or an MCP server). Oracles: no trap; every
/// diagnostic lies inside the text; a manifest that loads has no errors.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    let lines = FuzzInput.lineCount(text)
    func inside(_ diagnostics: [Diagnostic], _ file: String) {
        for diagnostic in diagnostics {
            guard let location = diagnostic.location, location.file == file else { continue }
            check(location.line >= 1 && location.line <= lines + 1 && location.column >= 1, "outside the text: \(diagnostic)")
        }
    }
    var reader = WorkspaceFileReader(root: FuzzConfig.root)
    var workspace = WorkspaceConfiguration(root: FuzzConfig.root)
    do {
        if let node = try YAMLLoader().load(text, file: "skillbook.yaml") { reader.read(node, into: &workspace) }
        inside(reader.diagnostics, "skillbook.yaml")
    } catch {
        inside(error.diagnostics, "skillbook.yaml")
    }
    let (entry, diagnostics) = FuzzConfig.manifests.loadEntry(text, file: "fuzz.yaml", path: "/nonexistent/fuzz.yaml", manifestDirectory: "/nonexistent")
    inside(diagnostics, "fuzz.yaml")
    if entry != nil { check(!diagnostics.contains { $0.severity == .error }, "a manifest with errors loaded") }
    return 0
}

enum FuzzConfig {
    static let root = URL(fileURLWithPath: "/nonexistent/workspace")
    static let manifests = ManifestLoader()
}
