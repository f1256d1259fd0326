import Foundation
import SkillbookCore
import Testing

@Suite struct FunctionEvaluationTests {
    @Test func text() throws {
        #expect(try value("replace('a-b-c', '-', '+')") == "a+b+c")
        #expect(try value("trim('  hi \\n')") == "hi")
        #expect(try value("starts_with(inputs.day, '2026')") == true)
        #expect(try value("ends_with(inputs.day, '02')") == false)
        #expect(evaluationError("${{ replace('a', '', 'b') }}")?.message == "function 'replace' needs a non-empty text to replace")
    }

    @Test func paths() throws {
        #expect(try value("basename('/home/anna/notes.tar.gz')") == "notes.tar.gz")
        #expect(try value("dirname('/home/anna/notes.tar.gz')") == "/home/anna")
        #expect(try value("extension('/home/anna/notes.tar.gz')") == "gz")
        #expect(try value("basename('dir/sub/')") == "sub")
        #expect(try value("dirname('notes.txt')") == ".")
        #expect(try value("dirname('/notes.txt')") == "/")
        #expect(try value("extension('.bashrc')") == "")
        #expect(try value("extension('README')") == "")
    }

    /// Issue 28.6: trailing slashes are dropped in linear time (`a` + 100,000 slashes took 38 s).
    @Test func pathsWithAHundredThousandTrailingSlashes() throws {
        let slashes = String(repeating: "/", count: 100_000)
        var context = Fixture.context
        for (path, base, dir) in [
            ("a" + slashes, "a", "."), ("/home/anna" + slashes, "anna", "/home"), ("/a" + slashes + "b" + slashes, "b", "/a"),
            (slashes, "/", "/"), ("x" + slashes + "y.txt", "y.txt", "x"),
        ] {
            context.inputs["path"] = .string(path)
            #expect(try value("basename(inputs.path)", in: context) == .string(base))
            #expect(try value("dirname(inputs.path)", in: context) == .string(dir))
        }
        context.inputs["path"] = .string("notes.tar.gz" + slashes)
        #expect(try value("extension(inputs.path)", in: context) == "gz")
    }

    @Test func objectsAndLists() throws {
        #expect(try value("keys(steps.notes.output)") == ["items", "count"])
        #expect(try value("values(steps.notes.output.items[0])") == ["n1", "Milk", false])
        #expect(try value("first(inputs.feeds)") == "a.example")
        #expect(try value("last(inputs.feeds)") == "b.example")
        #expect(try value("first([])") == nil)
        #expect(try value("last('abc')") == "c")
        #expect(try value("unique([1, 1.0, 2, 'a', 'a'])") == [1, 2, "a"])
        #expect(try value("sort([3, 1, 2.5])") == [1, 2.5, 3])
        #expect(try value("sort(['b', 'a', 'B'])") == ["B", "a", "b"])
        #expect(try value("flatten([[1, 2], [3], 4])") == [1, 2, 3, 4])
        #expect(try value("sum([1, 2, 3])") == 6)
        #expect(try value("sum([1, 2.5])") == 3.5)
        #expect(try value("sum([])") == 0)
        #expect(try value("min([3, 1, 2])") == 1)
        #expect(try value("max(['a', 'c', 'b'])") == "c")
        #expect(try value("max([])") == nil)
        #expect(evaluationError("${{ sum([1, 'a']) }}")?.message == "function 'sum' expects an array of numbers, found string at index 1")
        #expect(
            evaluationError("${{ sort([1, 'a']) }}")?.message
                == "function 'sort' expects an array of numbers or of strings, got an array of integer, string")
    }

    @Test func round() throws {
        #expect(try value("round(2.5)") == 3)
        #expect(try value("round(-2.5)") == -3)
        #expect(try value("round(7)") == 7)
        #expect(try value("round(3.14159, 2)") == 3.14)
        #expect(try check("${{ round(inputs.ratio) }}") == (.integer, []))
        #expect(try check("${{ round(inputs.ratio, 1) }}") == (.number, []))
        #expect(try check("${{ round(1, 2, 3) }}").errors.map(\.message) == ["function 'round' takes 1 or 2 arguments, got 3"])
    }

    @Test func json() throws {
        #expect(try value("from_json('{\"a\": [1, 2]}')") == ["a": [1, 2]])
        #expect(try value("to_json(inputs.feeds)") == "[\"a.example\",\"b.example\"]")
        #expect(try value("from_json(to_json(steps.notes.output)) == steps.notes.output") == true)
        #expect(try check("${{ from_json('1').anything[0] }}") == (.any, []))
        #expect(
            evaluationError("${{ from_json('{') }}")?.message.hasPrefix("function 'from_json' cannot read its text as JSON: ") == true)
    }

    @Test func formatDate() throws {
        #expect(try value("format_date('2026-03-01', 'yyyy-MM-dd')") == "2026-03-01")
        #expect(try value("format_date('2026-03-01', 'EEEE d MMMM yyyy')") == "Sunday 1 March 2026")
        #expect(try value("format_date('2026-11-30T23:30:00Z', 'yyyy-MM-dd HH:mm')") == "2026-12-01 00:30")
        #expect(try value("format_date('tomorrow 9am', 'dd.MM. HH:mm')") == "02.12. 09:00")
        #expect(evaluationError("${{ format_date('someday', 'yyyy') }}")?.message == "cannot read 'someday' as a date")
    }

    @Test func typeRules() throws {
        let expected: [(String, ExprType)] = [
            ("keys(inputs)", .array(.string)),
            ("values(steps.notes.output.items[0])", .array(.any)),
            ("first(inputs.feeds)", .string),
            ("sort(inputs.feeds)", .array(.string)),
            ("unique(steps.notes.output.items)", .array(ExprType(schema: Fixture.notesOutput.property("items")?.items ?? .any))),
            ("flatten([inputs.feeds, inputs.feeds])", .array(.string)),
            ("sum([1, 2])", .integer),
            ("max([inputs.ratio])", .number),
            ("starts_with(inputs.day, '2')", .boolean),
            ("basename(inputs.day)", .string),
            ("format_date(inputs.day, 'yyyy')", .string),
            ("from_json(inputs.day)", .any),
        ]
        for (source, type) in expected {
            let result = try check("${{ \(source) }}")
            #expect(result.type == type, "\(source)")
            #expect(result.errors.isEmpty, "\(source)")
        }
        #expect(try check("${{ sum(inputs.feeds) }}").errors.map(\.message) == ["function 'sum' expects an array of numbers, got array of string"])
        #expect(
            try check("${{ max(steps.notes.output.items) }}").errors.map(\.message)
                == ["function 'max' expects an array of numbers or of strings, got array of object"])
    }

    @Test(arguments: [
        ("uppercase", "upper"), ("lowercase", "lower"), ("len", "length"), ("strip", "trim"), ("startswith", "starts_with"),
        ("tojson", "to_json"), ("fromJson", "from_json"), ("basname", "basename"),
    ])
    func unknownFunctionsSuggestTheNearest(name: String, suggestion: String) throws {
        let errors = try check("${{ \(name)('x') }}").errors
        #expect(errors.map(\.message) == ["unknown function '\(name)'; did you mean '\(suggestion)'?"])
        #expect(errors.first?.offset == 4)
    }
}
