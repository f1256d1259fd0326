// fuzz-modules: Core
import Foundation
@testable import SkillbookCore

/// `${{ … }}` templates: parsed, typed against a scope, and evaluated (within the step limit) in a
/// context of the same shape. Oracle (type soundness): when the checker types a template without
/// errors and it evaluates, the value's type fits the static type.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpressions(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    guard let template = try? TemplateString.parse(text) else { return 0 }
    let typed = template.type(in: FuzzExpressionWorld.scope)
    guard let value = try? template.evaluate(in: FuzzExpressionWorld.context) else { return 0 }
    if typed.errors.isEmpty {
        check(TypeChecker.type(of: value).fits(typed.type), "value \(value) is not of its static type \(typed.type): \(text)")
    }
    return 0
}
