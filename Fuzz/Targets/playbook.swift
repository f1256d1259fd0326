// fuzz-modules: Core
import Foundation
import SkillbookCore

/// The YAML loader, playbook decoder and checker (with a schedule, expressions and a registry):
/// any text gives a result, and every diagnostic of a file has a place inside the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaybook(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    let result = PlaybookLoader(registry: FuzzInput.registry).load(text, file: "fuzz.yaml")
    let lines = FuzzInput.lineCount(text)
    for diagnostic in result.diagnostics {
        guard let location = diagnostic.location, location.file == "fuzz.yaml" else { continue }
        check(location.line >= 1 && location.line <= lines + 1, "diagnostic outside the text: \(diagnostic)")
        check(location.column >= 1, "diagnostic column below 1: \(diagnostic)")
    }
    if result.playbook != nil { check(!result.diagnostics.contains { $0.severity == .error }, "a playbook with errors") }
    return 0
}
