import Foundation
import SkillbookCore

/// A trigger or example phrase compiled for matching: literal text and `{slot}`s, each slot typed
/// by the schema of the input or parameter of that name.
struct PhrasePattern: Sendable {
    enum Segment: Sendable {
        /// Lower-cased, width-folded literal text; spaces in it match any run of spaces (or none).
        case literal([Character])
        case slot(name: String, kind: SlotKind, schema: Schema)
    }

    /// What a slot consumes, from the schema it fills.
    enum SlotKind: Sendable, Equatable {
        /// `format: date` or `date-time`: the longest phrase the date parser accepts.
        case date
        /// `format: uri`: one URL.
        case uri
        /// `format: path`: one path (a word without spaces, or a quoted text).
        case path
        /// `integer` or `number`: one number.
        case number
        /// An `enum` of strings: one of its values.
        case choice([String])
        /// An array: the rest, split at commas and "and", each element of the item kind.
        case list(item: Schema)
        /// Any other string: the rest (or, before more pattern, as little as lets the rest match).
        case text

        /// A list whose items are paths.
        var isPathList: Bool {
            if case .list(let item) = self { return PhrasePattern.kind(of: item) == .path }
            return false
        }
    }

    let phrase: String
    let segments: [Segment]
    /// Characters of literal text, without spaces (how much of a match the pattern itself explains).
    let literalWeight: Int

    /// `nil` when the phrase names a slot the target has no input for, or has no literal text at
    /// all (a bare `{title}` would match anything): at least two characters, or one Chinese one.
    init?(_ phrase: String, slots: [String: Schema]) {
        var segments: [Segment] = []
        var literal: [Character] = []
        // Fillers are dropped from requests, so they are dropped from patterns too.
        var rest = Substring(TextFolding.chineseFillers.reduce(phrase) { $0.replacingOccurrences(of: $1, with: "") })
        while !rest.isEmpty {
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                let name = String(rest[rest.index(after: rest.startIndex)..<close]).trimmingCharacters(in: .whitespaces)
                guard let schema = slots[name] else { return nil }
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = []
                segments.append(.slot(name: name, kind: Self.kind(of: schema), schema: schema))
                rest = rest[rest.index(after: close)...]
            } else {
                let c = TextFolding.lower(TextFolding.foldWidth(rest.removeFirst()))
                if c == " " && (literal.last == " " || (literal.isEmpty && segments.isEmpty)) { continue }
                literal.append(c.isWhitespace ? " " : c)
            }
        }
        while literal.last == " " { literal.removeLast() }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        segments = segments.map { segment in
            if case .literal(let chars) = segment { return .literal(TextFolding.foldSpelling(chars)) }
            return segment
        }
        let weight = segments.reduce(0) { sum, segment in
            if case .literal(let chars) = segment { return sum + chars.filter { $0 != " " }.count }
            return sum
        }
        let hasChinese = segments.contains { segment in
            if case .literal(let chars) = segment { return chars.contains(where: TextFolding.isCJK) }
            return false
        }
        guard weight >= (hasChinese ? 1 : 2) else { return nil }
        self.phrase = phrase
        self.segments = segments
        self.literals = segments.compactMap { segment in
            if case .literal(let chars) = segment { return chars.filter { $0 != " " } }
            return nil
        }
        self.literalWeight = weight
    }

    static func kind(of schema: Schema) -> SlotKind {
        switch schema.type {
        case .integer, .number: return .number
        case .array: return .list(item: schema.items ?? .any)
        default: break
        }
        if let values = schema.enumValues?.compactMap(\.stringValue), !values.isEmpty { return .choice(values) }
        switch schema.format {
        case "date", "date-time": return .date
        case "uri": return .uri
        case "path": return .path
        default: return .text
        }
    }

    /// The literal pieces without spaces, for a quick check that a request can match at all.
    let literals: [[Character]]

    /// The words of the literal text, for scoring beyond the pattern.
    var literalText: String {
        segments.map { segment in
            if case .literal(let chars) = segment { return String(chars) }
            return " "
        }.joined()
    }
}
