@testable import SkillbookCore
import Testing

@Suite struct TypeCheckingTests {
    /// Asserts that `text` has exactly one type error, `message`, at the first occurrence of `marker`
    /// (or at `offset`).
    private func expectError(
        _ text: String, _ message: String, at marker: String, scope: ExpressionScope = Fixture.scope,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let errors = try check(text, in: scope).errors
        #expect(errors.map(\.message) == [message], sourceLocation: sourceLocation)
        #expect(errors.first?.offset == offset(of: marker, in: text), sourceLocation: sourceLocation)
    }

    @Test func inputs() throws {
        try expectError("${{ inputs.dya }}", "unknown input 'dya'; did you mean 'day'?", at: "dya")
        try expectError("x ${{ inputs.zzzzzzzz }}", "unknown input 'zzzzzzzz'", at: "zzzzzzzz")
        try expectError("${{ inputs['dy'] }}", "unknown input 'dy'; did you mean 'day'?", at: "'dy'")
        try expectError(
            "${{ inputs.day }}", "inputs are not available here", at: "inputs", scope: ExpressionScope(inputs: nil))
        #expect(try check("${{ inputs.day }}").errors.isEmpty)
        #expect(try check("${{ inputs.day }}").type == .string)
    }

    @Test func steps() throws {
        try expectError("${{ steps.ntoes.output }}", "unknown step 'ntoes'; did you mean 'notes'?", at: "ntoes")
        try expectError("${{ steps.qqqqqqq.output }}", "unknown step 'qqqqqqq'", at: "qqqqqqq")
        try expectError(
            "${{ steps.later.output.x }}", "step 'later' runs later; only earlier steps' outputs can be used",
            at: "later")
        try expectError("${{ steps.self.output }}", "step 'self' cannot use its own output", at: "self")
        try expectError("${{ steps.echo.outptu }}", "expected 'steps.echo.output'", at: "outptu")
        try expectError("${{ steps.echo }}", "expected 'steps.echo.output'", at: "echo")
        try expectError("${{ steps.echo[0] }}", "expected 'steps.echo.output'", at: "[")
        try expectError("${{ steps }}", "expected 'steps.<id>.output'", at: "steps")
        try expectError(
            "${{ steps.echo.output.nope }}", "skill 'debug.echo' has no output field 'nope'; it has: value", at: "nope")
        try expectError(
            "${{ steps.notes.output.item }}", "skill 'notes.list' has no output field 'item'; it has: items, count",
            at: "item")
    }

    @Test func fields() throws {
        try expectError(
            "${{ steps.notes.output.items[0].titel }}", "no field 'titel' in object with fields: id, title, done",
            at: "titel")
        try expectError("${{ run.name }}", "no field 'name' in object with fields: id, playbook, started, workspace", at: "name")
        try expectError("${{ inputs.day.length }}", "cannot access field 'length' of string", at: "length")
        try expectError("${{ inputs.feeds.first }}", "cannot access field 'first' of array of string", at: "first")
        try expectError("${{ inputs.count[0] }}", "cannot index integer", at: "[")
        try expectError("${{ inputs.feeds[inputs.day] }}", "array index must be an integer, got string", at: "[")
        try expectError("${{ inputs.day.*.x }}", "cannot use '.*' on string", at: "*")
        #expect(try check("${{ steps.echo.output.value.anything[3].goes }}").errors.isEmpty)
    }

    @Test func rootsThatDependOnThePlace() throws {
        try expectError("${{ item.url }}", "item is only available inside foreach", at: "item")
        try expectError("${{ index }}", "index is only available inside foreach", at: "index")
        try expectError("${{ this.output.id }}", "this is only available in rollback steps", at: "this")
        try expectError("${{ env.SECRET }}", "env 'SECRET' is not declared", at: "SECRET")
        try expectError(
            "${{ foo.bar }}", "unknown name 'foo'; expressions start with inputs, steps, item, index, run, env or this",
            at: "foo")

        var loop = Fixture.scope
        loop.item = .object(fields: [ObjectField(name: "url", type: .string)])
        #expect(try check("${{ item.url }}", in: loop) == (.string, []))
        #expect(try check("${{ index }}", in: loop).type == .integer)
        try expectError("${{ item.uri }}", "no field 'uri' in object with fields: url", at: "uri", scope: loop)

        var rollback = Fixture.scope
        rollback.this = (input: .object(fields: nil), output: ExprType(schema: Fixture.notesOutput))
        #expect(try check("${{ this.output.count }}", in: rollback) == (.integer, []))
        #expect(try check("${{ env.HOME }}").type == .string)
    }

    @Test func functions() throws {
        try expectError(
            "${{ lenght(inputs.feeds) }}", "unknown function 'lenght'; did you mean 'length'?", at: "lenght")
        try expectError("${{ frobnicate() }}", "unknown function 'frobnicate'", at: "frobnicate")
        try expectError("${{ join(inputs.feeds) }}", "function 'join' takes 2 arguments, got 1", at: "join")
        try expectError("${{ length() }}", "function 'length' takes 1 argument, got 0", at: "length")
        try expectError(
            "${{ split(inputs.count, ',') }}", "function 'split' expects string as argument 1, got integer",
            at: "inputs")
        try expectError(
            "${{ length(true) }}", "function 'length' expects string, array or object as argument 1, got boolean",
            at: "true")
        try expectError(
            "${{ add_days(inputs.day, '1') }}", "function 'add_days' expects integer as argument 2, got string",
            at: "'1'")
    }

    @Test func functionResultTypes() throws {
        let expected: [(String, ExprType)] = [
            ("length(inputs.feeds)", .integer),
            ("default(inputs.day, 'x')", .string),
            ("default(null, 3)", .integer),
            ("default(steps.echo.output.value, 3)", .any),
            ("join(inputs.feeds, ',')", .string),
            ("split(inputs.day, '-')", .array(.string)),
            ("lower(inputs.day)", .string),
            ("upper(inputs.day)", .string),
            ("contains(inputs.feeds, 'x')", .boolean),
            ("today()", .string),
            ("now()", .string),
            ("date(inputs.day)", .string),
            ("add_days(inputs.day, 1)", .string),
            ("json(inputs)", .string),
        ]
        for (source, type) in expected {
            let result = try check("${{ \(source) }}")
            #expect(result.type == type, "\(source)")
            #expect(result.errors.isEmpty, "\(source)")
        }
    }

    /// Issue 28, the `expressions` fuzzer's type-soundness oracle: a value whose type says it is
    /// never null can still be null when evaluated (`first` of an empty text or list, `min` of an
    /// empty list, an absent field), so `default`'s fallback is one of its types, always: the
    /// checker typed `default(first(''), 1)` as a string and it evaluated to the integer 1.
    @Test func defaultsFallbackIsAlwaysOneOfItsTypes() throws {
        let expected: [(String, ExprType)] = [
            ("default(first(''), 1)", .union([.string, .integer])),
            ("default(last(split('', ',')), 2)", .union([.string, .integer])),
            ("default(min(split('', ',')), false)", .union([.string, .boolean])),
            ("default(inputs.count, 2.5)", .number),
            ("default(inputs.day, 'x')", .string),
            ("default(inputs.feeds, [])", .array(.string)),
            ("default(inputs.ratio, 1)", .number),
        ]
        for (source, type) in expected {
            let result = try check("${{ \(source) }}")
            #expect(result.type == type, "\(source)")
            #expect(result.errors.isEmpty, "\(source)")
            let value = try evaluate("${{ \(source) }}")
            #expect(TypeChecker.type(of: value).fits(result.type), "\(source) is \(value)")
        }
    }

    @Test func comparisons() throws {
        try expectError("${{ inputs.day < inputs.count }}", "cannot compare string with integer", at: "<")
        try expectError("${{ inputs.feeds >= 1 }}", "cannot compare array of string with integer", at: ">=")
        #expect(try check("${{ inputs.count < inputs.ratio }}") == (.boolean, []))
        #expect(try check("${{ inputs.day >= '2026-01-01' }}") == (.boolean, []))
        #expect(try check("${{ steps.echo.output.value > 3 }}") == (.boolean, []))
        #expect(try check("${{ inputs.day == inputs.count }}") == (.boolean, []))
        #expect(try check("${{ !inputs.feeds && inputs.day || inputs.count }}") == (.boolean, []))
    }

    @Test func everyErrorIsReported() throws {
        let text = "${{ inputs.dya }} and ${{ steps.zzzzzz.output }} and ${{ lenght(item) }}"
        let errors = try check(text).errors
        #expect(
            errors.map(\.message) == [
                "unknown input 'dya'; did you mean 'day'?", "unknown step 'zzzzzz'",
                "item is only available inside foreach", "unknown function 'lenght'; did you mean 'length'?",
            ])
        #expect(
            errors.map(\.offset) == [
                offset(of: "dya", in: text), offset(of: "zzzzzz", in: text), offset(of: "item", in: text),
                offset(of: "lenght", in: text),
            ])
    }

    @Test func singleExpressionKeepsItsTypeInterpolationIsText() throws {
        #expect(try check("${{ inputs.feeds }}").type == .array(.string))
        #expect(try check("feeds: ${{ inputs.feeds }}").type == .string)
        #expect(try check("plain").type == .string)
        #expect(try check("${{ [1, 2.5] }}").type == .array(.number))
        #expect(try check("${{ [1, 'a'] }}").type == .array(.any))
    }

    @Test func projectionTypes() throws {
        #expect(try check("${{ steps.notes.output.items.*.title }}") == (.array(.string), []))
        #expect(try check("${{ steps.notes.output.items.* }}").type.description == "array of object")
        #expect(try check("${{ steps.echo.output.value.*.x }}") == (.array(.any), []))
        try expectError(
            "${{ steps.notes.output.items.*.name }}", "no field 'name' in object with fields: id, title, done",
            at: "name")
    }

    @Test func outputsOfObjectListsAreNotStrings() throws {
        let items = try check("${{ steps.notes.output.items }}")
        #expect(items.errors.isEmpty)
        #expect(items.type.description == "array of object")
        #expect(!items.type.isAssignable(to: .string()))
        #expect(items.type.isAssignable(to: .array(.freeObject())))
        #expect(!items.type.isAssignable(to: .array(.string())))

        let value = try check("${{ steps.echo.output.value }}")
        #expect(value.type == .any)
        #expect(value.type.isAssignable(to: .string()))
    }

    @Test func assignability() {
        #expect(ExprType.integer.isAssignable(to: .number()))
        #expect(!ExprType.number.isAssignable(to: .integer()))
        #expect(!ExprType.string.isAssignable(to: .integer()))
        #expect(!ExprType.integer.isAssignable(to: .string()))
        #expect(ExprType.null.isAssignable(to: .integer()))
        #expect(ExprType.string.isAssignable(to: .any))
        #expect(ExprType.array(.integer).isAssignable(to: .array(.number())))
        #expect(!ExprType.array(.string).isAssignable(to: .array(.integer())))
        #expect(ExprType.array(.any).isAssignable(to: .array(.integer())))
        #expect(ExprType.object(fields: nil).isAssignable(to: Fixture.notesOutput))
        #expect(!ExprType.boolean.isAssignable(to: .freeObject()))
    }

    @Test func typesFromSchemas() {
        #expect(ExprType(schema: .any) == .any)
        #expect(ExprType(schema: .freeObject()) == .object(fields: nil))
        #expect(ExprType(schema: Schema(type: .array)) == .array(.any))
        #expect(
            ExprType(schema: Fixture.echoOutput) == .object(fields: [ObjectField(name: "value", type: .any)]))
        let descriptions = [
            ExprType.any, .null, .boolean, .integer, .number, .string, .array(.string), .array(.array(.integer)),
            .array(.any), .object(fields: []),
        ].map(\.description)
        #expect(
            descriptions == [
                "any", "null", "boolean", "integer", "number", "string", "array of string",
                "array of array of integer", "array", "object",
            ])
    }
}
