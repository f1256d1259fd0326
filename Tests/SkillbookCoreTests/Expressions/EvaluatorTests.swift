import Foundation
import SkillbookCore
import Testing

@Suite struct EvaluationTests {
    @Test func singleExpressionKeepsItsType() throws {
        #expect(try evaluate("${{ inputs.feeds }}") == ["a.example", "b.example"])
        #expect(try evaluate("${{ inputs.count }}") == 3)
        #expect(try evaluate("${{ inputs.flag }}") == false)
        #expect(try evaluate("${{ steps.notes.output.items[0] }}") == ["id": "n1", "title": "Milk", "done": false])
        #expect(try evaluate("${{ steps.missing.output }}") == .null)
    }

    @Test func interpolationMakesText() throws {
        #expect(try evaluate("Briefing ${{ inputs.day }}") == "Briefing 2026-03-01")
        #expect(try evaluate("n=${{ inputs.count }} r=${{ inputs.ratio }} f=${{ inputs.flag }}") == "n=3 r=0.5 f=false")
        #expect(try evaluate("feeds: ${{ inputs.feeds }}") == "feeds: [\"a.example\",\"b.example\"]")
        #expect(try evaluate("[${{ steps.missing.output }}]") == "[]")
        #expect(try evaluate("no expressions") == "no expressions")
        #expect(try evaluate(" ${{ inputs.count }}") == " 3")
    }

    @Test func literals() throws {
        #expect(try value("42") == 42)
        #expect(try value("-3") == -3)
        #expect(try value("2.25") == 2.25)
        #expect(try value("'single'") == "single")
        #expect(try value("\"double \\\"q\\\"\"") == "double \"q\"")
        #expect(try value("null") == .null)
        #expect(try value("[1, 'two', [true], null]") == [1, "two", [true], nil])
    }

    @Test func paths() throws {
        #expect(try value("inputs['my key']") == "spaced")
        #expect(try value("steps.notes.output.items[1].title") == "Eggs")
        #expect(try value("steps.notes.output.items[-1].id") == "n2")
        #expect(try value("steps.notes.output.count") == 2)
        #expect(try value("steps.notes.output.nothing.deeper") == .null)
        #expect(try value("run.playbook") == "morning")
        #expect(try value("env.HOME") == "/home/anna")
        #expect(try value("env.UNSET") == .null)
        #expect(try value("inputs[inputs.empty]") == .null)
    }

    @Test func projection() throws {
        #expect(try value("steps.notes.output.items.*.title") == ["Milk", "Eggs"])
        #expect(try value("steps.notes.output.items.*") == .array(Fixture.context.steps["notes"]?["items"]?.arrayValue ?? []))
        #expect(try value("steps.missing.output.items.*.title") == .null)
        #expect(try value("[[1, 2], [3]].*[0]") == [1, 3])
        #expect(try value("length(steps.notes.output.items.*.id)") == 2)
    }

    @Test func loopAndRollbackNames() throws {
        var context = Fixture.context
        #expect(try value("item", in: context) == .null)
        #expect(try value("this.output", in: context) == .null)
        context.item = ["url": "https://example.org"]
        context.index = 4
        context.this = object([("input", ["id": "n9"]), ("output", ["ok": true])])
        #expect(try value("item.url", in: context) == "https://example.org")
        #expect(try value("index", in: context) == 4)
        #expect(try value("this.input.id", in: context) == "n9")
    }

    @Test func logic() throws {
        #expect(try value("!inputs.flag") == true)
        #expect(try value("!inputs.feeds") == false)
        #expect(try value("inputs.count && inputs.day") == true)
        #expect(try value("inputs.empty && unknown.name") == false)
        #expect(try value("inputs.flag || inputs.empty") == false)
        #expect(try value("inputs.flag || 'x'") == true)
        #expect(try value("!(1 == 2) && (true || false)") == true)
    }

    @Test func equalityIsDataEquality() throws {
        #expect(try value("1 == 1.0") == true)
        #expect(try value("1 != 1.5") == true)
        #expect(try value("'a' == 'a'") == true)
        #expect(try value("'1' == 1") == false)
        #expect(try value("null == steps.missing.output") == true)
        #expect(try value("[1, [2]] == [1.0, [2.0]]") == true)
        #expect(try value("steps.notes.output.items[0] == steps.notes.output.items[0]") == true)
        #expect(try value("steps.notes.output.items[0] == steps.notes.output.items[1]") == false)
    }

    @Test func ordering() throws {
        #expect(try value("1 < 2") == true)
        #expect(try value("2 <= 2.0") == true)
        #expect(try value("2.5 > 2") == true)
        #expect(try value("3 >= 4") == false)
        #expect(try value("'apple' < 'banana'") == true)
        #expect(try value("'b' > 'a'") == true)
        #expect(try value("steps.missing.output > 1") == false)
        #expect(try value("inputs.count > 2 && inputs.count < 4") == true)
    }

    @Test func negation() throws {
        #expect(try value("-inputs.count") == -3)
        #expect(try value("-inputs.ratio") == -0.5)
    }

    @Test(arguments: [
        ("${{ inputs.day.x }}", "cannot access field 'x' of string", 15),
        ("${{ inputs.count[0] }}", "cannot index integer", 16),
        ("${{ inputs.day[10] }}", "index 10 is out of range for a string of 10 characters", 14),
        ("${{ inputs.feeds[5] }}", "index 5 is out of range for an array of 2 items", 16),
        ("${{ inputs.feeds[-3] }}", "index -3 is out of range for an array of 2 items", 16),
        ("${{ inputs.feeds['a'] }}", "cannot access field 'a' of array", 17),
        ("${{ inputs.feeds[true] }}", "array index must be an integer, got boolean", 16),
        ("${{ inputs.day.*.x }}", "cannot use '.*' on string", 15),
        ("${{ 'a' < 1 }}", "cannot compare string with integer", 8),
        ("${{ -inputs.day }}", "operator '-' expects a number, got string", 4),
        ("${{ split(inputs.count, ',') }}", "function 'split' expects string as argument 1, got integer", 10),
        ("${{ nope(1) }}", "unknown function 'nope'", 4),
        ("${{ foo }}", "unknown name 'foo'; expressions start with inputs, steps, item, index, run, env or this", 4),
    ])
    func runtimeErrors(text: String, message: String, offset: Int) {
        let error = evaluationError(text)
        #expect(error?.message == message, "\(text)")
        #expect(error?.offset == offset, "\(text)")
    }

    @Test func integerOverflowIsAnErrorNotATrap() {
        var context = Fixture.context
        context.inputs["big"] = Value.int(Int.min)
        #expect(evaluationError("${{ -inputs.big }}", in: context) != nil)
        #expect(evaluationError("${{ -(-9223372036854775807) }}", in: context) == nil)
    }
}
