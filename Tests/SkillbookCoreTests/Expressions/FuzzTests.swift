import Foundation
import SkillbookCore
import Testing

@Suite struct ExpressionFuzzTests {
    static let tokens = [
        "${{", "}}", "${{ ", " }}", "$", "{", "}", "inputs", "steps", "item", "index", "run", "env", "this", "output",
        "day", "count", "feeds", "notes", "echo", "items", "title", "value", "later", "self", "HOME", "foo",
        ".", ".*", "*", "[", "]", "(", ")", ",", "!", "-", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "=", "&",
        "|", "0", "1", "-1", "2.5", "9223372036854775807", "99999999999999999999", "'a'", "'", "\"x\"", "\"",
        "'\\n'", "'\\u00e9'", "'\\", "true", "false", "null", "length", "default", "join", "split", "lower", "upper",
        "contains", "today", "now", "date", "add_days", "json", "lenght", " ", "  ", "\n", "é", "😀", "a-b",
    ]

    private static func randomText(_ rng: inout SplitMix64) -> String {
        var text = Bool.random(using: &rng) ? "${{ " : ""
        for _ in 0..<Int.random(in: 0...24, using: &rng) {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                // A random scalar, sometimes outside ASCII.
                let value = UInt32.random(in: 0...0x2FFFF, using: &rng)
                if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
            case 1:
                text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &rng)))
            default:
                text += tokens.randomElement(using: &rng) ?? ""
            }
        }
        if Bool.random(using: &rng) { text += " }}" }
        return text
    }

    @Test func randomTemplatesNeverCrash() {
        var rng = SplitMix64(seed: 20_261_130)
        var scope = Fixture.scope
        scope.item = .object(fields: nil)
        var context = Fixture.context
        context.item = ["a": [1, 2]]
        context.index = 0
        var parsed = 0
        var evaluated = 0
        for _ in 0..<5000 {
            let text = Self.randomText(&rng)
            guard let template = try? TemplateString.parse(text) else { continue }
            parsed += 1
            let (_, errors) = template.type(in: scope)
            for error in errors { #expect(error.offset >= 0 && error.offset <= text.count, "\(text)") }
            _ = template.type(in: ExpressionScope(inputs: nil))
            for expression in template.expressions { _ = expression.references }
            if (try? template.evaluate(in: context)) != nil { evaluated += 1 }
        }
        // The generator must reach the checker and the evaluator, not only the parser.
        #expect(parsed > 500)
        #expect(evaluated > 200)
    }

    @Test func syntaxErrorOffsetsStayInsideTheText() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let text = Self.randomText(&rng)
            do {
                _ = try TemplateString.parse(text)
            } catch {
                #expect(error.offset >= 0 && error.offset <= text.count, "\(text)")
                #expect(!error.message.isEmpty)
            }
        }
    }
}
