import SkillbookCore
import Testing

@Suite struct TemplateParsingTests {
    @Test func plainTextHasNoExpressions() throws {
        let template = try TemplateString.parse("just text, with $ and { braces }")
        #expect(!template.hasExpressions)
        #expect(template.singleExpression == nil)
        #expect(template.segments == [.text("just text, with $ and { braces }")])
    }

    @Test func singleExpressionMustBeTheWholeString() throws {
        let single = try TemplateString.parse("${{ inputs.day }}")
        #expect(single.singleExpression?.source == "inputs.day")
        #expect(single.singleExpression?.offset == 0)
        #expect(try TemplateString.parse(" ${{ inputs.day }}").singleExpression == nil)
        #expect(try TemplateString.parse("${{ inputs.day }} ").singleExpression == nil)
        #expect(try TemplateString.parse("${{ a }}${{ b }}").singleExpression == nil)
    }

    @Test func segmentsAlternateTextAndExpressions() throws {
        let template = try TemplateString.parse("Briefing ${{inputs.day}} for ${{ run.playbook }}!")
        #expect(template.segments.count == 5)
        guard case .expression(let first) = template.segments[1], case .expression(let second) = template.segments[3]
        else {
            Issue.record("expected expressions at 1 and 3")
            return
        }
        #expect(first.source == "inputs.day")
        #expect(first.offset == 9)
        #expect(second.source == "run.playbook")
        #expect(second.offset == 29)
        #expect(template.segments[4] == .text("!"))
    }

    @Test func closingBracesInsideStringsDoNotEndTheExpression() throws {
        let template = try TemplateString.parse("${{ join(inputs.feeds, '}}') }}")
        #expect(template.singleExpression?.source == "join(inputs.feeds, '}}')")
    }

    @Test func literals() throws {
        func node(_ text: String) throws -> ExprNode? { try TemplateString.parse("${{ \(text) }}").singleExpression?.node }
        #expect(try node("42") == .literal(.int(42), offset: 4))
        #expect(try node("-7") == .literal(.int(-7), offset: 4))
        #expect(try node("2.5") == .literal(.double(2.5), offset: 4))
        #expect(try node("'it\\'s'") == .literal(.string("it's"), offset: 4))
        #expect(try node("\"a\\n\\t\\\"b\\u00e9\"") == .literal(.string("a\n\t\"bé"), offset: 4))
        #expect(try node("true") == .literal(.bool(true), offset: 4))
        #expect(try node("false") == .literal(.bool(false), offset: 4))
        #expect(try node("null") == .literal(.null, offset: 4))
        #expect(try node("[1, 'a']") == .list([.literal(.int(1), offset: 5), .literal(.string("a"), offset: 8)], offset: 4))
        #expect(try node("[]") == .list([], offset: 4))
    }

    @Test func paths() throws {
        let node = try TemplateString.parse("${{ steps.ls.output.items[0]['my key'] }}").singleExpression?.node
        let steps = ExprNode.name("steps", offset: 4)
        let items = ExprNode.member(.member(.member(steps, "ls", offset: 10), "output", offset: 13), "items", offset: 20)
        #expect(node == .member(.index(items, .literal(.int(0), offset: 26), offset: 25), "my key", offset: 29))
    }

    @Test func hyphenatedNames() throws {
        let node = try TemplateString.parse("${{ steps.fetch-pages.output }}").singleExpression?.node
        #expect(node == .member(.member(.name("steps", offset: 4), "fetch-pages", offset: 10), "output", offset: 22))
    }

    @Test func projection() throws {
        let node = try TemplateString.parse("${{ a.items.*.path.name }}").singleExpression?.node
        let base = ExprNode.member(.name("a", offset: 4), "items", offset: 6)
        let body = ExprNode.member(.member(.element(offset: 12), "path", offset: 14), "name", offset: 19)
        #expect(node == .projection(base, body: body, offset: 12))
    }

    @Test func precedence() throws {
        let node = try TemplateString.parse("${{ !a || b && c == d < e }}").singleExpression?.node
        let a = ExprNode.unary(.not, .name("a", offset: 5), offset: 4)
        let comparison = ExprNode.binary(.less, .name("d", offset: 20), .name("e", offset: 24), offset: 22)
        let equality = ExprNode.binary(.equal, .name("c", offset: 15), comparison, offset: 17)
        let and = ExprNode.binary(.and, .name("b", offset: 10), equality, offset: 12)
        #expect(node == .binary(.or, a, and, offset: 7))
    }

    @Test func parenthesesAndCalls() throws {
        let node = try TemplateString.parse("${{ (a || b) && length(c, 1) }}").singleExpression?.node
        let or = ExprNode.binary(.or, .name("a", offset: 5), .name("b", offset: 10), offset: 7)
        let call = ExprNode.call("length", [.name("c", offset: 23), .literal(.int(1), offset: 26)], offset: 16)
        #expect(node == .binary(.and, or, call, offset: 13))
    }

    @Test func references() throws {
        let template = try TemplateString.parse(
            "${{ length(steps.ls.output.items.*.path) > inputs.n && steps.ls.output.items[index].x == item['k'] }}")
        #expect(
            template.singleExpression?.references == [
                ["steps", "ls", "output", "items"], ["inputs", "n"], ["index"], ["item", "k"],
            ])
    }

    @Test(arguments: [
        ("${{ inputs.day", "unterminated expression: '${{' without '}}'", 0),
        ("Hello ${{ a }", "unterminated expression: '${{' without '}}'", 6),
        ("${{ }}", "empty expression", 0),
        ("x ${{   }} y", "empty expression", 2),
        ("${{ a # b }}", "unexpected '#'", 6),
        ("${{ 'abc }}", "unterminated string literal", 4),
        ("${{ 'a\\qb' }}", "unknown escape '\\q' in string literal", 6),
        ("${{ (a || b }}", "expected ')'", 12),
        ("${{ a b }}", "unexpected 'b'", 6),
        ("${{ a && }}", "unexpected end of expression", 9),
        ("${{ a = b }}", "unexpected '='; did you mean '=='?", 6),
        ("${{ a & b }}", "unexpected '&'; did you mean '&&'?", 6),
        ("${{ a | b }}", "unexpected '|'; did you mean '||'?", 6),
        ("${{ join(a b) }}", "expected ',' or ')'", 11),
        ("${{ [1, 2 }}", "expected ',' or ']'", 10),
        ("${{ a[0 }}", "expected ']'", 8),
        ("${{ a. }}", "expected a field name after '.'", 7),
        ("${{ a.0 }}", "expected a field name after '.'", 6),
        ("${{ ) }}", "unexpected ')'", 4),
        ("${{ a } }}", "unexpected '}'", 6),
        ("${{ 99999999999999999999 }}", "number '99999999999999999999' is too large", 4),
        ("${{ ${{ a }} }}", "unexpected '$'", 4),
        ("ok ${{ a }} then ${{ b c }}", "unexpected 'c'", 23),
    ])
    func syntaxErrors(text: String, message: String, offset: Int) {
        let error = syntaxError(text)
        #expect(error?.message == message, "\(text)")
        #expect(error?.offset == offset, "\(text)")
    }

    @Test func deepNestingIsRejectedNotRecursedInto() {
        let deep = "${{ " + String(repeating: "(", count: 5000) + "a" + String(repeating: ")", count: 5000) + " }}"
        #expect(syntaxError(deep)?.message == "expression is nested too deeply")
        let nots = "${{ " + String(repeating: "!", count: 5000) + "a }}"
        #expect(syntaxError(nots)?.message == "expression is nested too deeply")
        let chain = "${{ a" + String(repeating: " || a", count: 5000) + " }}"
        #expect(syntaxError(chain)?.message == "expression is nested too deeply")
        let shallow = "${{ " + String(repeating: "(", count: 20) + "a" + String(repeating: ")", count: 20) + " }}"
        #expect(syntaxError(shallow) == nil)
    }

    /// ASCII text without a carriage return is lexed as bytes, other text as characters: both
    /// give the same segments, nodes and character offsets.
    @Test(arguments: [
        "Hi ${{ inputs.name }}, ${{ len(steps.a.output.items) + 1 }} left: ${{ 'a\\tb' }} ${{ x != 2.5 && !y }}",
        "${{ join(steps.fetch-pages.output.items.*.title, ', ') }}", "${{ 1 + }}", "${{ 'open", "a ${{ b = c }}",
        "${{ '\\u00e9\\q' }}", "${{ #x }}", "${{ }}", "${{ inputs.x ",
    ])
    func bytesAndCharactersLexAlike(_ ascii: String) throws {
        // The same text after a non-ASCII character of one Character, and after a CRLF (one Character, two bytes).
        for prefix in ["é", "\r\n"] {
            let other = prefix + ascii
            let (errorA, errorB) = (syntaxError("e" + ascii), syntaxError(other))
            #expect(errorA?.message == errorB?.message)
            #expect(errorA?.offset == errorB?.offset)
            guard errorA == nil, errorB == nil else { continue }
            let (a, b) = (try TemplateString.parse("e" + ascii), try TemplateString.parse(other))
            #expect(a.expressions.map(\.node) == b.expressions.map(\.node))
            #expect(a.expressions.map(\.offset) == b.expressions.map(\.offset))
            #expect(a.expressions.map(\.source) == b.expressions.map(\.source))
            #expect(a.segments.count == b.segments.count)
        }
    }
}
