// fuzz-modules: Core
import Foundation
import SkillbookCore

/// The JSON decoder and the schema reader and validator: the text as JSON; an object is read as a
/// schema (its `$ref`s, cycles included, must not blow up) and every value of the document is
/// validated against it; JSON written back from a value decodes to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONSchema(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    guard let value = try? JSONText.decode(text) else { return 0 }
    let written = JSONText.encode(value)
    guard let again = try? JSONText.decode(written) else { fail("\(written) (from \(text)) does not decode") }
    check(SchemaValidator.equalAsData(again, value), "\(text) → \(written) → \(again)")
    var diagnostics: [Diagnostic] = []
    if case .object = value, let schema = SchemaDecoder().decode(value, diagnostics: &diagnostics) {
        _ = SchemaValidator.isValid(value, against: schema)
        if case .object(let object) = value {
            for (_, member) in object { _ = SchemaValidator.isValid(member, against: schema) }
        }
    }
    return 0
}
