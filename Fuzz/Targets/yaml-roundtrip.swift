// fuzz-modules: Core
import Foundation
import SkillbookCore

/// The plan writer's YAML (issue 28.2-4): any string written by `YAMLText.scalar` as a value, and
/// as a key through `YAMLText.entry`, reads back through the loader identical.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLRoundTrip(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    let document = YAMLText.entry(key: text, valueText: YAMLText.scalar(text), indent: 0).joined(separator: "\n") + "\n"
    let node: YAMLNode?
    do {
        node = try YAMLLoader().load(document, file: "fuzz.yaml")
    } catch {
        fail("written YAML does not load: \(error)\n\(document)")
    }
    guard case .object(let object)? = node?.value else { fail("not a mapping: \(document)") }
    check(object.count == 1 && object[text] == .string(text), "read back differently: \(object) from \(document)")
    return 0
}
