/// A shell-style file-name pattern: `*` (any run of characters except `/`), `?` (one character
/// except `/`), `[abc]`, `[a-z]`, `[!abc]` or `[^abc]` (one character in or not in the set), `**` as
/// a whole segment (any number of folders, including none) and `\x` (the character `x` itself).
/// An unclosed `[` stands for itself. Matching is case-sensitive.
struct Glob: Sendable, Hashable {
    private enum Token: Sendable, Hashable {
        case literal(Character)
        case any  // ?
        case star  // *
        case set(ranges: [ClosedRange<Character>], negated: Bool)
    }

    private enum Segment: Sendable, Hashable {
        case globstar
        case tokens([Token])
    }

    let pattern: String
    private let segments: [Segment]

    /// Whether the pattern has a `/` or a `**`: it then matches paths relative to the listed folder
    /// (and reaches into sub-folders) rather than names.
    var matchesPaths: Bool { segments.count > 1 || segments.contains(.globstar) }

    init(_ pattern: String) {
        self.pattern = pattern
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part in
            part == "**" ? .globstar : .tokens(Self.tokens(part))
        }
    }

    /// Whether `path` (segments separated by `/`, or a single name) matches.
    func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0) }
        return Self.match(segments[...], parts[...])
    }

    private static func match(_ segments: ArraySlice<Segment>, _ parts: ArraySlice<[Character]>) -> Bool {
        guard let first = segments.first else { return parts.isEmpty }
        switch first {
        case .globstar:
            let rest = segments.dropFirst()
            var remaining = parts
            while true {
                if match(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        case .tokens(let tokens):
            guard let part = parts.first, matchSegment(tokens[...], part[...]) else { return false }
            return match(segments.dropFirst(), parts.dropFirst())
        }
    }

    private static func matchSegment(_ tokens: ArraySlice<Token>, _ text: ArraySlice<Character>) -> Bool {
        guard let token = tokens.first else { return text.isEmpty }
        switch token {
        case .star:
            let rest = tokens.dropFirst()
            if rest.isEmpty { return true }
            var remaining = text
            while true {
                if matchSegment(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        case .any:
            return !text.isEmpty && matchSegment(tokens.dropFirst(), text.dropFirst())
        case .literal(let character):
            return text.first == character && matchSegment(tokens.dropFirst(), text.dropFirst())
        case .set(let ranges, let negated):
            guard let character = text.first else { return false }
            guard ranges.contains(where: { $0.contains(character) }) != negated else { return false }
            return matchSegment(tokens.dropFirst(), text.dropFirst())
        }
    }

    private static func tokens(_ text: Substring) -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "*":
                if tokens.last != .star { tokens.append(.star) }
            case "?":
                tokens.append(.any)
            case "\\" where index < characters.count:
                tokens.append(.literal(characters[index]))
                index += 1
            case "[":
                if let (token, next) = set(characters, from: index) {
                    tokens.append(token)
                    index = next
                } else {
                    tokens.append(.literal("["))
                }
            default:
                tokens.append(.literal(character))
            }
        }
        return tokens
    }

    /// The set starting after a `[` at `start`, and the index after its `]`; `nil` when unclosed.
    private static func set(_ characters: [Character], from start: Int) -> (Token, Int)? {
        var index = start
        var negated = false
        if index < characters.count, characters[index] == "!" || characters[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<Character>] = []
        var first = true
        while index < characters.count {
            var character = characters[index]
            if character == "]" && !first { return (.set(ranges: ranges, negated: negated), index + 1) }
            first = false
            if character == "\\", index + 1 < characters.count {
                index += 1
                character = characters[index]
            }
            index += 1
            if index + 1 < characters.count, characters[index] == "-", characters[index + 1] != "]" {
                let upper = characters[index + 1]
                ranges.append(character <= upper ? character...upper : upper...character)
                index += 2
            } else {
                ranges.append(character...character)
            }
        }
        return nil
    }
}
