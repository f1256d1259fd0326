import SkillbookCore
import Testing

@Suite struct ArithmeticTests {
    @Test func integersStayIntegersWhereExact() throws {
        #expect(try value("inputs.count + 2") == 5)
        #expect(try value("inputs.count - 5") == -2)
        #expect(try value("inputs.count * 4") == 12)
        #expect(try value("6 / 3") == 2)
        #expect(try value("7 / 2") == 3.5)
        #expect(try value("7 % 3") == 1)
        #expect(try value("-7 % 3") == -1)
        #expect(try value("inputs.ratio * 4") == 2.0)
        #expect(try value("7.5 % 2") == 1.5)
        #expect(try value("1 + 2 * 3 - 4 / 2") == 5)
        #expect(try value("(1 + 2) * 3") == 9)
    }

    @Test func plusJoinsStringsAndArrays() throws {
        #expect(try value("'a' + 'b'") == "ab")
        #expect(try value("inputs.feeds + ['c.example']") == ["a.example", "b.example", "c.example"])
        #expect(try check("${{ inputs.day + '!' }}") == (.string, []))
        #expect(try check("${{ inputs.feeds + ['x'] }}") == (.array(.string), []))
    }

    @Test func staticTypes() throws {
        #expect(try check("${{ inputs.count + 1 }}") == (.integer, []))
        #expect(try check("${{ inputs.count / 2 }}") == (.number, []))
        #expect(try check("${{ inputs.count * inputs.ratio }}") == (.number, []))
        #expect(try check("${{ steps.echo.output.value + 'x' }}") == (.string, []))
    }

    @Test(arguments: [
        ("${{ inputs.day + 1 }}", "operator '+' expects two numbers, two strings or two arrays, got string and integer", 15),
        ("${{ inputs.day - 1 }}", "operator '-' expects two numbers, got string and integer", 15),
        ("${{ inputs.feeds * 2 }}", "operator '*' expects two numbers, got array of string and integer", 17),
    ])
    func typeErrors(text: String, message: String, offset: Int) throws {
        let errors = try check(text).errors
        #expect(errors.map(\.message) == [message])
        #expect(errors.first?.offset == offset)
    }

    @Test(arguments: [
        ("${{ 1 / 0 }}", "division by zero", 6),
        ("${{ 1 % 0 }}", "division by zero", 6),
        ("${{ 9223372036854775807 + 1 }}", "9223372036854775807 + 1 does not fit in a 64-bit integer", 24),
        ("${{ steps.missing.output + 1 }}", "operator '+' expects two numbers, two strings or two arrays, got null and integer", 25),
    ])
    func runtimeErrors(text: String, message: String, offset: Int) {
        let error = evaluationError(text)
        #expect(error?.message == message)
        #expect(error?.offset == offset)
    }

    @Test func conditional() throws {
        #expect(try value("inputs.count > 2 ? 'many' : 'few'") == "many")
        #expect(try value("inputs.flag ? 1 : inputs.count > 5 ? 2 : 3") == 3)
        #expect(try check("${{ inputs.count > 2 ? 'a' : 'b' }}") == (.string, []))
        #expect(try check("${{ inputs.count > 2 ? 1 : 2.5 }}") == (.number, []))
        let both = try check("${{ inputs.count > 2 ? inputs.nope : lenght(inputs.day) }}").errors.map(\.message)
        #expect(both == ["unknown input 'nope'", "unknown function 'lenght'; did you mean 'length'?"])
        let condition = try check("${{ inputs.day ? 1 : 2 }}").errors
        #expect(condition.map(\.message) == ["the condition of '?' must be a boolean, got string"])
        #expect(condition.first?.offset == 15)
        #expect(evaluationError("${{ inputs.day ? 1 : 2 }}")?.message == "the condition of '?' must be a boolean, got string")
        #expect(syntaxError("${{ inputs.flag ? 1 }}")?.message == "expected ':' of 'condition ? then : else'")
    }

    @Test func slicesAndNegativeIndexes() throws {
        #expect(try value("inputs.feeds[0:1]") == ["a.example"])
        #expect(try value("inputs.feeds[1:]") == ["b.example"])
        #expect(try value("inputs.feeds[:-1]") == ["a.example"])
        #expect(try value("inputs.feeds[-1]") == "b.example")
        #expect(try value("inputs.feeds[0:99]") == ["a.example", "b.example"])
        #expect(try value("inputs.feeds[5:]") == [])
        #expect(try value("inputs.day[0:4]") == "2026")
        #expect(try value("inputs.day[5:]") == "03-01")
        #expect(try value("inputs.day[-2:]") == "01")
        #expect(try value("inputs.day[-1]") == "1")
        #expect(try check("${{ inputs.feeds[0:3] }}") == (.array(.string), []))
        #expect(try check("${{ inputs.day[1:] }}") == (.string, []))
        #expect(try check("${{ inputs.count[1:] }}").errors.map(\.message) == ["cannot slice integer; slices take an array or a string"])
        #expect(try check("${{ inputs.feeds['a':] }}").errors.map(\.message) == ["slice bounds must be integers, got string"])
    }

    @Test func aBooleanComparedWithAStringOrNumberIsATypeError() throws {
        var scope = Fixture.scope
        scope.inputs?.append(ObjectField(name: "flag", type: .boolean))
        let errors = try check("${{ inputs.flag == 'true' }}", in: scope).errors
        #expect(errors.map(\.message) == ["cannot compare boolean with string: they are never equal"])
        #expect(errors.first?.offset == 16)
        #expect(try check("${{ 1 != inputs.flag }}", in: scope).errors.map(\.message) == ["cannot compare integer with boolean: they are never equal"])
        #expect(try check("${{ inputs.flag < true }}", in: scope).errors.map(\.message) == ["cannot compare boolean with boolean"])
        #expect(try check("${{ inputs.flag == true }}", in: scope).errors.isEmpty)
    }
}
