import SkillbookTesting
import SkillbookCore
import Foundation
import SkillbookSQL
import SkillbookSQLite
import Testing

/// A playbook that must be refused before anything runs, with the diagnostic it must produce.
struct MalformedCase: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    /// The diagnostic it must produce, after the file name: `LINE:COLUMN: error: message`.
    var expected: String

    var testDescription: String { name }
}

/// The preamble most cases share: a valid start so the problem is the only one.
private let header = "name: broken\nsteps:\n"

let malformedCases: [MalformedCase] = [
    MalformedCase(
        name: "unclosed flow sequence", yaml: "name: broken\nsteps: [\n  { id: a, skill: debug.echo }\n",
        expected: "4:1: error: YAML syntax: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 8)"),
    MalformedCase(
        name: "bad indentation", yaml: "name: broken\nsteps:\n  - id: a\n   skill: debug.echo\n",
        expected: "4:4: error: YAML syntax: did not find expected '-' indicator (while parsing a block collection at line 3, column 3)"),
    MalformedCase(
        name: "tab indentation", yaml: "name: broken\nsteps:\n\t- id: a\n",
        expected: "3:1: error: YAML syntax: found character that cannot start any token (while scanning for the next token at line 3, column 1)"),
    MalformedCase(
        name: "duplicate top-level key", yaml: "name: broken\nname: again\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n",
        expected: "2:1: error: duplicate key 'name' (first defined at line 1, column 1)"),
    MalformedCase(
        name: "duplicate parameter", yaml: header + "  - id: a\n    skill: debug.echo\n    with:\n      value: 1\n      value: 2\n",
        expected: "7:7: error: duplicate key 'value' (first defined at line 6, column 7)"),
    MalformedCase(
        name: "two documents", yaml: header + "  - { id: a, skill: debug.echo, with: { value: 1 } }\n---\nname: other\n",
        expected: "4:1: error: a playbook file holds one YAML document; found a second '---'"),
    MalformedCase(
        name: "unknown alias", yaml: header + "  - { id: a, skill: debug.echo, with: { value: *nothing } }\n",
        expected: "3:48: error: unknown alias '*nothing': no anchor '&nothing' comes before it"),
    MalformedCase(
        name: "billion laughs",
        yaml: """
            a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
            b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
            c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
            d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
            e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
            f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
            g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]

            """,
        expected: "6:8: error: aliases expand to more than 100000 nodes; refusing to expand '*e'"),
    MalformedCase(
        name: "empty file", yaml: "",
        expected: "1:1: error: the playbook is empty; it needs at least 'name' and 'steps'"),
    MalformedCase(
        name: "root is a list", yaml: "- id: a\n  skill: debug.echo\n",
        expected: "1:1: error: a playbook must be a mapping with 'name' and 'steps', not a list"),
    MalformedCase(
        name: "unknown top-level key", yaml: "name: broken\nstpes:\n  - { id: a, skill: debug.echo }\n",
        expected: "2:1: error: unknown playbook key 'stpes'; did you mean 'steps'?"),
    MalformedCase(
        name: "unknown step key", yaml: header + "  - id: a\n    skill: debug.echo\n    wth: { value: 1 }\n",
        expected: "5:5: error: unknown step key 'wth'; did you mean 'with'?"),
    MalformedCase(
        name: "bad cron field",
        yaml: "name: broken\nschedule: { cron: \"30 7 * * 1-8\" }\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n",
        expected: "2:31: error: schedule.cron: field 5 (day-of-week): 8 is out of range 0-7"),
    MalformedCase(
        name: "missing name", yaml: "steps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n",
        expected: "1:1: error: the playbook is missing 'name'"),
    MalformedCase(
        name: "empty steps", yaml: "name: broken\nsteps: []\n",
        expected: "2:8: error: 'steps' is empty; a playbook needs at least one step"),
    MalformedCase(
        name: "steps not a list", yaml: "name: broken\nsteps:\n  a: debug.echo\n",
        expected: "3:3: error: 'steps' must be a list of steps"),
    MalformedCase(
        name: "step without id", yaml: header + "  - skill: debug.echo\n    with: { value: 1 }\n",
        expected: "3:5: error: step 1 is missing 'id'"),
    MalformedCase(
        name: "step without skill", yaml: header + "  - id: a\n    with: { value: 1 }\n",
        expected: "3:5: error: step 'a' is missing 'skill' (the skill it calls)"),
    MalformedCase(
        name: "bad step id", yaml: header + "  - id: save note\n    skill: debug.echo\n    with: { value: 1 }\n",
        expected: "3:9: error: step id 'save note' must start with a letter and use only letters, digits and '_'"),
    MalformedCase(
        name: "duplicate step id",
        yaml: header + "  - { id: a, skill: debug.echo, with: { value: 1 } }\n  - { id: a, skill: debug.echo, with: { value: 2 } }\n",
        expected: "4:5: error: duplicate step id 'a' (first used at line 3); step ids must be unique"),
    MalformedCase(
        name: "unknown skill", yaml: header + "  - id: a\n    skill: notes.creat\n    with: { title: x }\n",
        expected: "4:12: error: step 'a' uses unknown skill 'notes.creat'; did you mean 'notes.create'?"),
    MalformedCase(
        name: "unknown parameter", yaml: header + "  - id: a\n    skill: notes.create\n    with:\n      titel: hello\n",
        expected: "6:7: error: step 'a': skill 'notes.create' has no parameter 'titel'; did you mean 'title'?"),
    MalformedCase(
        name: "missing required parameter", yaml: header + "  - id: a\n    skill: notes.create\n    with: { body: text }\n",
        expected: "5:5: error: step 'a' is missing required parameter 'title' of skill 'notes.create'"),
    MalformedCase(
        name: "literal of the wrong type", yaml: header + "  - id: save\n    skill: notes.create\n    with:\n      title: 42\n",
        expected: "6:14: error: step 'save' parameter 'title' expects string, got integer"),
    MalformedCase(
        name: "literal over the maximum", yaml: header + "  - id: recent\n    skill: notes.list\n    with: { limit: 5000 }\n",
        expected: "5:20: error: step 'recent' parameter 'limit' must be at most 1000, got 5000"),
    MalformedCase(
        name: "empty title", yaml: header + "  - id: save\n    skill: notes.create\n    with: { title: \"\" }\n",
        expected: "5:20: error: step 'save' parameter 'title' must not be empty"),
    MalformedCase(
        name: "wrong item type in a list", yaml: header + "  - id: save\n    skill: notes.create\n    with:\n      title: t\n      tags: [a, 2]\n",
        expected: "7:17: error: step 'save' parameter 'tags[1]' expects string, got integer"),
    MalformedCase(
        name: "array mapped into a string",
        yaml: header + "  - { id: n, skill: notes.list }\n  - id: save\n    skill: notes.create\n    with:\n      title: \"${{ steps.n.output.items }}\"\n",
        expected: "7:14: error: step 'save' parameter 'title' expects string, got array of object"),
    MalformedCase(
        name: "forward reference",
        yaml: header + "  - id: save\n    skill: notes.create\n    with: { title: \"${{ steps.later.output.value }}\" }\n  - { id: later, skill: debug.echo, with: { value: x } }\n",
        expected: "5:31: error: step 'later' runs later; only earlier steps' outputs can be used"),
    MalformedCase(
        name: "unknown step", yaml: header + "  - id: save\n    skill: notes.create\n    with: { title: \"${{ steps.nope.output.value }}\" }\n",
        expected: "5:31: error: unknown step 'nope'"),
    MalformedCase(
        name: "own output", yaml: header + "  - id: save\n    skill: notes.create\n    with: { title: \"${{ steps.save.output.title }}\" }\n",
        expected: "5:31: error: step 'save' cannot use its own output"),
    MalformedCase(
        name: "unknown input", yaml: "name: broken\ninputs:\n  who: { type: string }\nsteps:\n  - id: save\n    skill: notes.create\n    with: { title: \"Hi ${{ inputs.whom }}\" }\n",
        expected: "7:35: error: unknown input 'whom'; did you mean 'who'?"),
    MalformedCase(
        name: "undeclared output field",
        yaml: header + "  - { id: a, skill: debug.echo, with: { value: 1 } }\n  - id: save\n    skill: notes.create\n    with: { title: \"${{ steps.a.output.nope }}\" }\n",
        expected: "6:40: error: skill 'debug.echo' has no output field 'nope'; it has: value"),
    MalformedCase(
        name: "expression syntax error", yaml: header + "  - id: a\n    skill: debug.echo\n    with: { value: \"${{ inputs.x ) }}\" }\n",
        expected: "5:34: error: unexpected ')'"),
    MalformedCase(
        name: "unterminated expression", yaml: header + "  - id: a\n    skill: debug.echo\n    with: { value: \"${{ inputs.x\" }\n",
        expected: "5:21: error: unterminated expression: '${{' without '}}'"),
    MalformedCase(
        name: "unknown function", yaml: header + "  - id: a\n    skill: debug.echo\n    with: { value: \"${{ lenght('abc') }}\" }\n",
        expected: "5:25: error: unknown function 'lenght'; did you mean 'length'?"),
    MalformedCase(
        name: "unknown root name", yaml: header + "  - id: a\n    skill: debug.echo\n    with: { value: \"${{ foo.bar }}\" }\n",
        expected: "5:25: error: unknown name 'foo'; expressions start with inputs, steps, item, index, run, env or this"),
    MalformedCase(
        name: "interpolated text into an integer",
        yaml: header + "  - id: recent\n    skill: notes.list\n    with: { limit: \"n${{ run.id }}\" }\n",
        expected: "5:20: error: step 'recent' parameter 'limit' expects integer, got string"),
    MalformedCase(
        name: "bad on_failure", yaml: header + "  - id: a\n    skill: debug.echo\n    with: { value: 1 }\n    on_failure: rollbak\n",
        expected: "6:17: error: 'on_failure' must be one of rollback, stop, continue; did you mean 'rollback'?"),
    MalformedCase(
        name: "retry out of range", yaml: header + "  - id: a\n    skill: debug.echo\n    with: { value: 1 }\n    retry: 0\n",
        expected: "6:12: error: 'retry' attempts must be between 1 and 100"),
    MalformedCase(
        name: "negative timeout", yaml: header + "  - id: a\n    skill: debug.echo\n    with: { value: 1 }\n    timeout: -5\n",
        expected: "6:14: error: 'timeout' must be a positive duration such as 30, 30s, 5m or 1h"),
    MalformedCase(
        name: "unknown input type", yaml: "name: broken\ninputs:\n  who: { type: strng }\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n",
        expected: "3:16: error: unknown type 'strng'; did you mean 'string'?"),
    MalformedCase(
        name: "input default breaks its schema", yaml: "name: broken\ninputs:\n  count: { type: integer, default: many }\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n",
        expected: "3:36: error: input 'count' default expects integer, got string"),
    MalformedCase(
        name: "with is not a mapping", yaml: header + "  - id: a\n    skill: debug.echo\n    with: [1, 2]\n",
        expected: "5:11: error: 'with' must be a mapping of parameter names to values"),
]

@Suite struct MalformedPlaybookTests {
    @Test(arguments: malformedCases)
    func isRefusedWithItsDiagnosticAndRunsNothing(_ malformed: MalformedCase) async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("broken.yaml", malformed.yaml)
        let run = await skillbook(["run", file.path, "--json"], in: directory)
        #expect(run.code == 2)
        let expected = "\(file.path):\(malformed.expected)"
        #expect(run.errLines.contains(expected), "stderr was:\n\(run.err)")
        #expect(onlyDiagnostics(run.out), "no event may be printed, only the diagnostics: nothing ran\n\(run.out)")
        let notes = try NotesStore(stateDirectory: directory.state).list(tag: nil, limit: 1000)
        #expect(notes.isEmpty)

        let validate = await skillbook(["validate", file.path], in: directory)
        #expect(validate.code == 2)
        #expect(validate.errLines.contains(expected))
    }

    @Test func thereAreAtLeastThirtyCases() {
        #expect(malformedCases.count >= 30)
        #expect(Set(malformedCases.map(\.name)).count == malformedCases.count)
    }

    @Test func everyProblemIsReportedInOnePass() async {
        let directory = TemporaryDirectory()
        let file = directory.write(
            "many.yaml",
            """
            name: many
            steps:
              - id: a
                skill: notes.create
                with: { title: 42 }
              - id: a
                skill: nope.nothing
              - id: c
                skill: notes.list
                with: { limit: 0, tga: x }

            """)
        let run = await skillbook(["validate", file.path], in: directory)
        #expect(run.code == 2)
        let errors = run.errLines.filter { $0.contains(": error: ") }.map { $0.replacingOccurrences(of: file.path + ":", with: "") }
        #expect(
            errors == [
                "5:20: error: step 'a' parameter 'title' expects string, got integer",
                "6:5: error: duplicate step id 'a' (first used at line 3); step ids must be unique",
                "7:12: error: step 'a' uses unknown skill 'nope.nothing'",
                "10:20: error: step 'c' parameter 'limit' must be at least 1, got 0",
                "10:23: error: step 'c': skill 'notes.list' has no parameter 'tga'; did you mean 'tag'?",
            ])
        #expect(run.err.contains("5 errors, 0 warnings"))
    }
}
