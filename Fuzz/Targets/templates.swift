// fuzz-modules: Core
import Foundation
import SkillbookCore

/// `${{ … }}` templates as text (the split into literals and expressions, and interpolation; the
/// expression language's types are `expressions`' part): a text without `${{` is one literal that
/// evaluates to itself; an error's offset lies inside the text; expressions come in order, each
/// offset at its `${{`; a literal before the first expression is the text's start, one after an
/// expression follows a `}}`, the last literal is the text's end; interpolating gives a string
/// that starts with the first literal and ends with the last.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplates(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    let characters = Array(text)
    let template: TemplateString
    do {
        template = try TemplateString.parse(text)
    } catch {
        check(error.offset >= 0 && error.offset <= characters.count, "error offset \(error.offset) outside \(characters.count) characters: \(error)")
        return 0
    }
    check(template.source == text, "the source is not the text")
    guard text.contains("${{") else {
        check(template.segments == (text.isEmpty ? [] : [.text(text)]), "a text without ${{ is not one literal: \(template.segments)")
        if !text.isEmpty { check((try? template.evaluate(in: FuzzExpressionWorld.context)) == .string(text), "a literal does not evaluate to itself") }
        return 0
    }
    var position = 0  // where the next segment may start, in characters
    var afterExpression = false
    let segments = template.segments
    for (index, segment) in segments.enumerated() {
        switch segment {
        case .text(let part):
            // A literal ends where the next expression starts, or at the end of the text.
            let piece = Array(part)
            check(!piece.isEmpty, "an empty literal in \(text.debugDescription)")
            var end = characters.count
            if index + 1 < segments.count, case .expression(let next) = segments[index + 1] { end = next.offset }
            let start = end - piece.count
            check(start >= position && Array(characters[start..<end]) == piece, "literal \(part.debugDescription) does not end at \(end) of \(text.debugDescription)")
            if afterExpression {
                check(start >= 2 && characters[start - 2] == "}" && characters[start - 1] == "}", "literal \(part.debugDescription) does not follow a }}")
            } else {
                check(start == position, "text between \(position) and \(start) is lost")
            }
            position = end
            afterExpression = false
        case .expression(let expression):
            check(expression.offset >= position, "expression at \(expression.offset) before \(position) in \(text.debugDescription)")
            check(expression.offset + 3 <= characters.count && String(characters[expression.offset..<expression.offset + 3]) == "${{",
                "offset \(expression.offset) is not at a ${{ in \(text.debugDescription)")
            check(afterExpression || expression.offset == position, "text between \(position) and the expression at \(expression.offset) is lost")
            position = expression.offset + 3
            afterExpression = true
        }
    }
    if case .text(let last)? = template.segments.last { check(text.hasSuffix(last), "the last literal is not the text's end") }
    guard template.singleExpression == nil, case .string(let value)? = try? template.evaluate(in: FuzzExpressionWorld.context) else { return 0 }
    // Compared as bytes: an expression's value ending in CR before a literal starting with LF makes
    // one CR LF character in the result, which `hasSuffix` (by characters) would not find.
    if case .text(let first)? = template.segments.first {
        check(value.utf8.starts(with: first.utf8), "\(value.debugDescription) does not start with \(first.debugDescription)")
    }
    if case .text(let last)? = template.segments.last {
        check(value.utf8.reversed().starts(with: last.utf8.reversed()), "\(value.debugDescription) does not end with \(last.debugDescription)")
    }
    return 0
}
