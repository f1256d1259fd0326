import Foundation
import SkillbookCore

/// Regular expressions in a plan that check and still find nothing, as models write them:
/// - `\b` written in JSON as `"\b"`, which is a backspace (U+0008), not a word boundary;
/// - `^` or `$` without `(?m)` over a text of many lines (a file's content, an earlier step's
///   output), where they match only at the very start and end of the whole text;
/// - for a request that asks for lines ("the lines that start with ERROR", "以 ERROR 开头的行"), a
///   pattern anchored at the start of a line that stops before its end (`(?m)^ERROR`), whose
///   matches are the first word of each line, not the line; or a pattern with no anchor and nothing
///   to take the rest of the line (`ERROR`), whose matches are the word itself;
/// - for a request that asks for a well-known kind of text (`ExtractKind`: phone numbers, e-mail
///   addresses, links, amounts, dates, IP addresses), a pattern that finds fewer than half of its
///   usual forms in lines of other text (a US phone number only, `金额: (\d+)` over an English
///   invoice, `^…$` around an address): the kind's own pattern finds them all.
/// A parameter is a regular expression when it is named `regex` or its description says
/// "regular expression" (`text.extract`'s `regex`).
enum RegexLint {
    /// What is wrong with one regular expression, in the order the messages are given.
    private enum Fault {
        case backspace
        /// No anchor, nothing to the line's end (`ERROR`) where lines are asked for: `lines` matches them.
        case textAlone(lines: String)
        case anchorsOverManyLines
        /// Anchored at a line's start, stopping before its end (`(?m)^ERROR`, `^ERROR$` for lines
        /// that start with it): `lines` goes on to the end.
        case lineStartOnly(lines: String)
        /// Finds too few of the usual forms of the kind the request asks for; reported alone.
        case missesKind(ExtractKind)
    }

    /// The regular expressions of `step` (literal ones, not references) with their faults.
    private static func faults(_ step: Plan.Step, parameters: Schema, request: String) -> [(name: String, pattern: String, faults: [Fault])] {
        let linesAsked = asksForLines(request)
        let startingLines = asksForLineStarts(request)
        let kind = ExtractKind.asked(in: request)
        var found: [(name: String, pattern: String, faults: [Fault])] = []
        for (name, schema) in parameters.properties where isRegex(name: name, schema) {
            guard let pattern = step.with[name]?.stringValue, !pattern.utf8.containsTemplateOpening else { continue }
            if let kind, !kind.finds(wordBoundaries(pattern), group: step.with["group"]?.intValue ?? 0) {
                found.append((name, pattern, [.missesKind(kind)]))
                continue
            }
            var faults: [Fault] = []
            if pattern.contains("\u{8}") { faults.append(.backspace) }
            let whole = linesAsked ? wholeLines(pattern, startingLines: startingLines) : nil
            if whole == nil, linesAsked, let lines = linesAround(pattern, startingLines: startingLines) { faults.append(.textAlone(lines: lines)) }
            if whole == nil, anchorsLines(pattern), searchesManyLines(step, besides: name) { faults.append(.anchorsOverManyLines) }
            if let whole { faults.append(.lineStartOnly(lines: whole)) }
            if !faults.isEmpty { found.append((name, pattern, faults)) }
        }
        return found
    }

    static func lint(_ step: Plan.Step, index: Int, parameters: Schema, request: String = "") -> [Diagnostic] {
        faults(step, parameters: parameters, request: request).flatMap { name, pattern, faults in
            faults.map { fault -> Diagnostic in
                let message =
                    switch fault {
                    case .backspace:
                        "step '\(step.id)' parameter '\(name)' holds a backspace character where a word boundary was meant: "
                            + "in JSON \"\\b\" is a backspace; write \"\\\\b\" for \\b ('\(wordBoundaries(pattern))')"
                    case .textAlone(let lines):
                        "step '\(step.id)' parameter '\(name)' '\(pattern)' finds only that text, not the lines the request asks "
                            + "for; match the whole line: '\(lines)'"
                    case .anchorsOverManyLines:
                        "step '\(step.id)' parameter '\(name)' '\(pattern)' anchors with ^ or $, which match only at the start and end "
                            + "of the whole text, and this text has many lines; start it with (?m) to match at every line: '(?m)\(pattern)'"
                    case .lineStartOnly(let lines):
                        "step '\(step.id)' parameter '\(name)' '\(pattern)' "
                            + (endsWithAnchor(Substring(pattern)) ? "finds only the lines that are that text alone" : "finds only the start of each line")
                            + ", not the lines the request asks for; match up to the line's end: '\(lines)'"
                    case .missesKind(let kind):
                        "step '\(step.id)' parameter '\(name)' '\(pattern)' finds too few of the usual forms of \(kind.rawValue) "
                            + "(such as \(kind.samples.prefix(3).map { "'\($0.value)'" }.joined(separator: ", "))); use '\(kind.pattern)'"
                            + (step.with["group"].map { $0.intValue != 0 } == true ? " and leave 'group' out" : "")
                    }
                return .error(message, path: "steps[\(index)].with.\(name)")
            }
        }
    }

    /// The pattern the messages name, for each regular expression of `step` the lint finds fault
    /// with: the whole-line pattern the request asks for, or `(?m)` for anchors over many lines,
    /// with word boundaries for backspaces.
    /// For a pattern that misses the kind asked for, the kind's pattern, and `group` 0.
    static func fixes(_ step: Plan.Step, index: Int, parameters: Schema, request: String = "") -> [PlanFix] {
        faults(step, parameters: parameters, request: request).flatMap { name, pattern, faults -> [PlanFix] in
            var fixed = pattern
            var fixes: [PlanFix] = []
            for fault in faults {
                switch fault {
                case .textAlone(let lines), .lineStartOnly(let lines): fixed = lines
                case .anchorsOverManyLines: fixed = "(?m)" + pattern
                case .backspace: break
                case .missesKind(let kind):
                    fixed = kind.pattern
                    if let group = step.with["group"], group.intValue != 0 { fixes.append(PlanFix(step: index, parameter: "group", value: .int(0))) }
                }
            }
            fixed = wordBoundaries(fixed)
            return (fixed == pattern ? [] : [PlanFix(step: index, parameter: name, value: .string(fixed))]) + fixes
        }
    }

    /// `pattern` with `\b` (a word boundary) for each backspace character.
    private static func wordBoundaries(_ pattern: String) -> String {
        pattern.replacingOccurrences(of: "\u{8}", with: "\\b")
    }

    /// Whether a request asks for lines of a text ("the lines that start with ERROR", "每一行",
    /// "以 ERROR 开头的行").
    static func asksForLines(_ request: String) -> Bool {
        let words = Set(request.lowercased().split { !$0.isLetter }.map(String.init))
        return !words.isDisjoint(with: ["line", "lines"]) || ["的行", "每行", "每一行", "那些行", "这些行"].contains(where: request.contains)
    }

    /// Whether the lines asked for are those that start with something ("the lines that start with
    /// ERROR", "beginning with", "以 ERROR 开头的行").
    static func asksForLineStarts(_ request: String) -> Bool {
        let lowered = request.lowercased()
        return ["start with", "starts with", "starting with", "begin with", "begins with", "beginning with"].contains(where: lowered.contains)
            || request.contains("开头")
    }

    /// For a pattern with no anchor and nothing that reaches the end of a line (`ERROR`,
    /// `WARN|ERROR`), the pattern of the whole lines holding it — `(?m)^.*ERROR.*$` — or starting
    /// with it — `(?m)^ERROR.*$`; `nil` for any other pattern.
    static func linesAround(_ pattern: String, startingLines: Bool) -> String? {
        let (flags, body) = flagsAndBody(pattern)
        guard !body.isEmpty, !body.contains("^"), !body.contains("$"), !body.hasPrefix("(?"),
            !["\\n", ".*", ".+", "[^\\n]", "\\N"].contains(where: body.contains)
        else { return nil }
        let inner = body.contains("|") ? "(?:\(body))" : String(body)
        return multiline(flags) + (startingLines ? "^\(inner).*$" : "^.*\(inner).*$")
    }

    /// A pattern's leading flags (`(?i)`, empty when none) and the rest.
    private static func flagsAndBody(_ pattern: String) -> (flags: String, body: Substring) {
        let body = Substring(pattern)
        guard body.hasPrefix("(?"), let close = body.firstIndex(of: ")"),
            body[body.index(body.startIndex, offsetBy: 2)..<close].allSatisfy(\.isLetter)
        else { return ("", body) }
        return (String(body[..<body.index(after: close)]), body[body.index(after: close)...])
    }

    /// `flags` with `m` among them: `(?m)` for none, `(?im)` for `(?i)`.
    private static func multiline(_ flags: String) -> String {
        flags.contains("m") ? flags : flags.isEmpty ? "(?m)" : String(flags.dropLast()) + "m)"
    }

    /// For a pattern anchored at the start of a line (`^` first, after any `(?…)` flags) that
    /// stops before the line's end (no `$`, `.*`, `.+` or `[^\n]` in it), the same pattern taken up
    /// to the end of the line, with `(?m)`: `(?m)^ERROR` → `(?m)^ERROR.*$`; `nil` otherwise.
    /// With `startingLines` (the request asks for the lines that start with something), a pattern
    /// of that start alone up to the line's end (`^ERROR$`, lines that are `ERROR` and nothing
    /// else) is taken up to the end of the line as well: `(?m)^ERROR.*$`.
    static func wholeLines(_ pattern: String, startingLines: Bool = false) -> String? {
        let (flags, body) = flagsAndBody(pattern)
        guard body.hasPrefix("^"), !body.contains("|") else { return nil }
        let start = startingLines && endsWithAnchor(body) ? body.dropLast() : body
        if ["$", ".*", ".+", "[^\\n]", "\\N"].contains(where: start.contains) { return nil }
        return multiline(flags) + start + ".*$"
    }

    /// Whether a pattern ends with `$` that is not escaped.
    static func endsWithAnchor(_ body: Substring) -> Bool {
        body.hasSuffix("$") && !body.hasSuffix("\\$")
    }

    static func isRegex(name: String, _ schema: Schema) -> Bool {
        guard schema.type == .string else { return false }
        return name == "regex" || (schema.description?.localizedCaseInsensitiveContains("regular expression") ?? false)
    }

    /// `^` at the start (or after `|`/`(`) or `$` at the end (or before `|`/`)`), outside a class
    /// and not escaped, in a pattern without an `m` flag (`(?m)`, `(?im)`).
    static func anchorsLines(_ pattern: String) -> Bool {
        if pattern.range(of: #"\(\?[a-zA-Z]*m[a-zA-Z]*[):]"#, options: .regularExpression) != nil { return false }
        let chars = Array(pattern)
        var inClass = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\" {
                i += 2
                continue
            }
            if inClass {
                if c == "]" { inClass = false }
            } else if c == "[" {
                inClass = true
            } else if c == "^" {
                let before = i == 0 ? nil : chars[i - 1]
                if before == nil || before == "|" || before == "(" { return true }
            } else if c == "$" {
                let after = i + 1 < chars.count ? chars[i + 1] : nil
                if after == nil || after == "|" || after == ")" { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether the text the step searches may have many lines: another text parameter is a
    /// reference to an earlier step's output, or a literal with a line break.
    static func searchesManyLines(_ step: Plan.Step, besides regex: String) -> Bool {
        step.with.contains { name, value in
            guard name != regex, let text = value.stringValue else { return false }
            return text.utf8.containsTemplateOpening || text.contains("\n")
        }
    }
}
