// fuzz-modules: Core
import Foundation
@testable import SkillbookCore

/// `${{ … }}` templates: parsed, typed against a scope, and evaluated (within the step limit) in a
/// context of the same shape, with two secrets active (the input `token` and `secret('api')`).
/// Oracles: (type soundness) when the checker types a template without errors and it evaluates,
/// the value's type fits the static type; (taint) what a recorder would get — the value or the
/// error message, masked by the run's redactor — holds neither secret, nor a case form, base64
/// or URL-encoded form of one, nor six characters in a row of one, compared byte by byte, unless
/// the template wrote that text itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpressions(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    guard let template = try? TemplateString.parse(text) else { return 0 }
    let typed = template.type(in: FuzzExpressionWorld.scope)
    var context = FuzzExpressionWorld.context
    let taint = SecretTaint(FuzzExpressionWorld.redactor)
    context.taint = taint
    let recorded: Value
    do {
        let value = try template.evaluate(in: context)
        if typed.errors.isEmpty {
            check(TypeChecker.type(of: value).fits(typed.type), "value \(value) is not of its static type \(typed.type): \(text)")
        }
        recorded = taint.redactor.redact(value)
    } catch {
        recorded = .string(taint.redactor.redact("\(error)"))
    }
    FuzzExpressionWorld.checkMasked(recorded, template: text)
    return 0
}
