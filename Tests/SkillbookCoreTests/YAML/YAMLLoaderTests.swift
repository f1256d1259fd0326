import Foundation
import Testing

@testable import SkillbookCore

private func load(_ text: String, loader: YAMLLoader = YAMLLoader()) throws(DiagnosticError) -> YAMLNode? {
    try loader.load(text, file: "play.yaml")
}

/// The diagnostics loading `text` throws, as `line:column: message`.
private func problems(_ text: String, loader: YAMLLoader = YAMLLoader()) -> [String] {
    do {
        _ = try load(text, loader: loader)
        return []
    } catch {
        return error.diagnostics.map { diagnostic in
            #expect(diagnostic.severity == .error)
            #expect(diagnostic.location?.file == "play.yaml")
            let position = diagnostic.location.map { "\($0.line):\($0.column)" } ?? "?"
            return "\(position): \(diagnostic.message)"
        }
    }
}

private let playbook = """
    name: morning-briefing            # unique; the file is Playbooks/<name>.yaml
    description: Today's reminders and headlines, saved as a note. 早上好
    triggers:
      - morning briefing
      - brief me for {day}
    inputs:
      day:   { type: string, format: date, default: "${{ today() }}" }
      feeds: { type: array, items: { type: string, format: uri }, default: [] }
    schedule:
      cron: "30 7 * * 1-5"
      timezone: Europe/Berlin
    defaults: &defaults
      retry: { attempts: 3, backoff: exponential, delay: 2s }
    steps:
      - id: due
        skill: reminders.list
        with: { due_on: "${{ inputs.day }}" }
      - id: pages
        skill: web.summary
        foreach: "${{ inputs.feeds }}"
        concurrency: 4
        <<: *defaults
        with: { url: "${{ item }}" }
        on_failure: continue
      - id: note
        skill: notes.create
        with:
          title: 'Briefing ${{ inputs.day }}'
          body: |
            ${{ steps.due.output.text }}
            — end —
    outputs:
      note: "${{ steps.note.output.id }}"

    """

@Suite struct YAMLLoaderTests {
    // MARK: Diagnostics

    @Test func unclosedFlowSequence() {
        #expect(
            problems("a: [1, 2\nb: 3\n") == [
                "2:2: YAML syntax: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"
            ])
    }

    @Test func badIndentation() {
        #expect(
            problems("a:\n  b: 1\n c: 2\n") == [
                "3:2: YAML syntax: did not find expected key (while parsing a block mapping at line 1, column 1)"
            ])
        #expect(
            problems("- a\nb: 1\n") == [
                "2:1: YAML syntax: did not find expected '-' indicator (while parsing a block collection at line 1, column 1)"
            ])
    }

    @Test func tabIndentation() throws {
        #expect(
            problems("a:\n\tb: 1\n") == [
                "2:1: YAML syntax: found character that cannot start any token (while scanning for the next token at line 2, column 1)"
            ])
        #expect(
            problems("steps:\n  - id: x\n\t  skill: y\n") == [
                "3:1: YAML syntax: found a tab character that violates indentation (while scanning a plain scalar at line 2, column 9)"
            ])
        do {
            _ = try load("a:\n\tb: 1\n")
            Issue.record("a tab-indented document loaded")
        } catch {
            #expect(error.diagnostics.first?.hint == "YAML indents with spaces; this line has a tab")
        }
        do {
            _ = try load("a: [1, 2\n")
        } catch {
            #expect(error.diagnostics.first?.hint == nil)
        }
    }

    @Test func otherSyntaxErrors() {
        #expect(problems("a: b: c\n") == ["1:5: YAML syntax: mapping values are not allowed in this context"])
        #expect(
            problems("key: \"unterminated\n") == [
                "2:1: YAML syntax: found unexpected end of stream (while scanning a quoted scalar at line 1, column 6)"
            ])
        #expect(problems("a: x\u{7}\n") == ["1:5: YAML: control characters are not allowed"])
        #expect(problems("é: ok\nb: \u{1}\n") == ["2:4: YAML: control characters are not allowed"])
    }

    @Test func duplicateKeys() {
        #expect(
            problems("name: a\nsteps: []\nname: b\n") == ["3:1: duplicate key 'name' (first defined at line 1, column 1)"])
        #expect(
            problems("with:\n  title: a\n  body: b\n  title: c\n") == [
                "4:3: duplicate key 'title' (first defined at line 2, column 3)"
            ])
        #expect(problems("{a: 1, a: 2}") == ["1:8: duplicate key 'a' (first defined at line 1, column 2)"])
        #expect(problems("名字: 1\n名字: 2\n") == ["2:1: duplicate key '名字' (first defined at line 1, column 1)"])
        // Every duplicate is reported, not just the first.
        #expect(
            problems("a: 1\nb: 2\na: 3\nb: 4\n") == [
                "3:1: duplicate key 'a' (first defined at line 1, column 1)",
                "4:1: duplicate key 'b' (first defined at line 2, column 1)",
            ])
        // The same key in different mappings is fine.
        #expect(problems("- a: 1\n- a: 2\n").isEmpty)
    }

    @Test func nonScalarKey() {
        #expect(problems("? [a]\n: 1\n") == ["1:3: a mapping key must be a plain value, not a list"])
    }

    @Test func aliases() throws {
        #expect(problems("x: *nope\n") == ["1:4: unknown alias '*nope': no anchor '&nope' comes before it"])
        #expect(problems("a: *b\nb: &b 1\n") == ["1:4: unknown alias '*b': no anchor '&b' comes before it"])
        #expect(problems("a: &a [1, *a]\n") == ["1:11: alias '*a' refers to a collection that contains it"])
        let root = try #require(try load("base: &base { x: 1 }\ncopy: *base\n"))
        #expect(root.value == ["base": ["x": 1], "copy": ["x": 1]])
        // The copy carries the alias's position.
        #expect(root["copy"]?.range == SourceRange(start: loc(2, 7), end: loc(2, 12)))
    }

    @Test func billionLaughsFailsFast() {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...8 {
            let aliases = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(aliases)]\n"
        }
        let clock = ContinuousClock()
        var found: [String] = []
        let elapsed = clock.measure { found = problems(text) }
        #expect(found == ["5:45: aliases expand to more than 100000 nodes; refusing to expand '*a3'"])
        #expect(elapsed < .seconds(2))
        // A smaller budget stops earlier.
        #expect(
            problems(text, loader: YAMLLoader(aliasExpansionLimit: 100)) == [
                "2:55: aliases expand to more than 100 nodes; refusing to expand '*a0'"
            ])
    }

    @Test func nestingDeeperThanTheLimit() {
        #expect(problems("[[[[[1]]]]]", loader: YAMLLoader(depthLimit: 5)).isEmpty)
        #expect(problems("[[[[[[1]]]]]]", loader: YAMLLoader(depthLimit: 5)) == ["1:6: YAML nesting deeper than 5 levels"])
        #expect(
            problems(String(repeating: "[", count: 250) + String(repeating: "]", count: 250)) == [
                "1:201: YAML nesting deeper than 200 levels"
            ])
        let blocks = (0..<210).map { String(repeating: " ", count: $0) + "k\($0):\n" }.joined()
        #expect(problems(blocks + String(repeating: " ", count: 210) + "v\n") == ["201:201: YAML nesting deeper than 200 levels"])
        // Aliases cannot smuggle in deeper nesting.
        #expect(
            problems("a: &a [[[1]]]\nb: [[*a]]\n", loader: YAMLLoader(depthLimit: 5)) == [
                "2:6: YAML nesting deeper than 5 levels"
            ])
    }

    @Test func twoDocuments() {
        #expect(problems("a: 1\n---\nb: 2\n") == ["2:1: a playbook file holds one YAML document; found a second '---'"])
        #expect(problems("---\na: 1\n---\nb: 2\n") == ["3:1: a playbook file holds one YAML document; found a second '---'"])
        #expect(problems("---\na: 1\n...\n").isEmpty)
    }

    // MARK: Trees

    @Test func emptyDocumentsAreNil() throws {
        for text in ["", "\n\n", "   \n", "# only a comment\n", "---\n", "--- # nothing\n...\n"] {
            #expect(try load(text) == nil, "\(text.debugDescription)")
        }
        #expect(try load("~")?.value == .null)
        #expect(try load("''")?.value == "")
    }

    @Test func keyOrderIsKept() throws {
        let root = try #require(try load("zeta: 1\nalpha: 2\nmid: 3\nbeta: 4\n"))
        #expect(root.mapping?.map { $0.key.scalar } == ["zeta", "alpha", "mid", "beta"])
        #expect(root.value.objectValue?.keys == ["zeta", "alpha", "mid", "beta"])
    }

    @Test func startAndEndRanges() throws {
        let text = "name: demo\nsteps:\n  - id: first\n    skill: notes.create\ntags: [a, bc]\nq: 'hi'\n名字: 值\n"
        let root = try #require(try load(text))
        #expect(root.range == SourceRange(start: loc(1, 1), end: loc(8, 1)))
        let pairs = try #require(root.mapping)
        #expect(pairs[0].key.range == SourceRange(start: loc(1, 1), end: loc(1, 5)))
        #expect(pairs[0].value.range == SourceRange(start: loc(1, 7), end: loc(1, 11)))
        let steps = try #require(root["steps"])
        #expect(steps.location == loc(3, 3))
        let first = try #require(steps.sequence?.first)
        #expect(first.location == loc(3, 5))
        #expect(first["id"]?.range == SourceRange(start: loc(3, 9), end: loc(3, 14)))
        #expect(first["skill"]?.range == SourceRange(start: loc(4, 12), end: loc(4, 24)))
        let tags = try #require(root["tags"])
        #expect(tags.range == SourceRange(start: loc(5, 7), end: loc(5, 14)))
        #expect(tags.sequence?.map(\.range) == [
            SourceRange(start: loc(5, 8), end: loc(5, 9)), SourceRange(start: loc(5, 11), end: loc(5, 13)),
        ])
        #expect(root["q"]?.range == SourceRange(start: loc(6, 4), end: loc(6, 8)))
        // Columns count characters, not bytes.
        #expect(root["名字"]?.range == SourceRange(start: loc(7, 5), end: loc(7, 6)))
        #expect(root.node(at: [.key("steps"), .index(0), .key("skill")]).location == loc(4, 12))
        #expect(root.node(at: [.key("steps"), .index(7)]).location == loc(3, 3))
    }

    @Test(arguments: [
        ("a:", Value.null), ("~", nil), ("null", nil), ("Null", nil), ("NULL", nil),
        ("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false),
        ("42", 42), ("-7", -7), ("+3", 3), ("012", 12), ("0", 0),
        ("0x1F", 31), ("0xff", 255), ("0o17", 15),
        ("1.5", 1.5), ("-1e3", -1000.0), ("1.", 1.0), (".5", 0.5), ("6.02e+23", 6.02e23),
        (".inf", .double(.infinity)), ("-.Inf", .double(-.infinity)),
        ("\"42\"", "42"), ("'true'", "true"), ("\"null\"", "null"), ("!!str 5", "5"), ("!!str true", "true"),
        ("!!int \"7\"", 7), ("!!int 0x1F", 31), ("!!float 1", 1.0), ("!!bool 5", "5"), ("!!bool \"true\"", true),
        ("yes", "yes"), ("no", "no"), ("on", "on"), ("1_000", "1_000"), ("0x-1", "0x-1"), ("0x", "0x"),
        ("0o9", "0o9"), ("2026-11-30", "2026-11-30"), ("1.2.3", "1.2.3"), ("-x", "-x"), ("e5", "e5"),
        ("hello world", "hello world"), ("|\n  line1\n  line2\n", "line1\nline2\n"), (">-\n  a\n  b\n", "a b"),
    ])
    func scalarResolution(text: String, expected: Value) throws {
        let loaded = try load(text.hasPrefix("a:") ? text : "v: \(text)")
        let value = text.hasPrefix("a:") ? loaded?["a"]?.value : loaded?["v"]?.value
        #expect(value == expected)
    }

    @Test func notANumber() throws {
        let value = try #require(try load("v: .nan")?["v"]?.value)
        #expect(value.doubleValue?.isNaN == true)
    }

    @Test func realisticPlaybookLoads() throws {
        let root = try #require(try load(playbook))
        #expect(root.value.objectValue?.keys == ["name", "description", "triggers", "inputs", "schedule", "defaults", "steps", "outputs"])
        let body = root.node(at: [.key("steps"), .index(2), .key("with"), .key("body")])
        #expect(body.value == "${{ steps.due.output.text }}\n— end —\n")
        #expect(root.node(at: [.key("steps"), .index(1), .key("<<")]).value["retry"]?["attempts"] == 3)
    }

    // MARK: Fuzz

    @Test func randomBytesNeverCrash() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array("-:[]{},&*!|>'\"#?%@`~\n\n\n  \t\\abc01.é名\u{FEFF}\r".utf8)
        let loaders = [YAMLLoader(), YAMLLoader(aliasExpansionLimit: 10, depthLimit: 4)]
        for round in 0..<2_000 {
            let length = Int(generator.next() % 120)
            let bytes: [UInt8] = (0..<length).map { _ in
                round.isMultiple(of: 2)
                    ? UInt8(truncatingIfNeeded: generator.next())
                    : alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            for loader in loaders {
                if let node = try? loader.load(text, file: "fuzz.yaml") { _ = node.value }
            }
        }
    }

    @Test func everyTruncationOfAPlaybookLoadsOrThrows() {
        let bytes = Array(playbook.utf8)
        for end in 0...bytes.count {
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            do {
                _ = try load(text)?.value
            } catch {
                #expect(!error.diagnostics.isEmpty)
                #expect(error.diagnostics.allSatisfy { $0.location != nil })
            }
        }
    }
}

private func loc(_ line: Int, _ column: Int) -> SkillbookCore.SourceLocation {
    SkillbookCore.SourceLocation(file: "play.yaml", line: line, column: column)
}
