import Foundation

/// "Did you mean" suggestions by edit distance.
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo: at most
    /// `max(2, length / 3)` edits away. A word or candidate longer than
    /// `Limits.suggestionNameLength` characters is not considered (a 10 MB tool name gets no
    /// suggestion, at once), nor a candidate whose length differs from the word's by more than
    /// the edit limit (it cannot be that close), so the cost is bounded by the cap, not the input.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let cap = Limits.suggestionNameLength
        // A character is at least one UTF-8 byte: over `4 × cap` bytes is over the cap at any rate.
        guard word.utf8.count <= 4 * cap else { return nil }
        let folded = Array(word.lowercased())
        guard folded.count <= cap else { return nil }
        let limit = max(2, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let bytes = candidate.utf8.count
            // Each character is 1 to 4 bytes: decide on lengths from the byte count where it can.
            guard bytes <= 4 * cap, bytes + limit >= folded.count, bytes <= 4 * (folded.count + limit) else { continue }
            let other = Array(candidate.lowercased())
            guard other.count <= cap, abs(other.count - folded.count) <= limit else { continue }
            let distance = editDistance(folded, other)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `did you mean 'x'?`, or `nil`.
    public static func hint(for word: String, in candidates: some Sequence<String>) -> String? {
        closest(to: word, in: candidates).map { "did you mean '\($0)'?" }
    }

    /// Levenshtein distance over characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a), Array(b))
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension Suggestion {
    /// The IANA zone meant by `name`: one whose city is `name` (`Berlin` → `Europe/Berlin`,
    /// `new york` → `America/New_York`), else the closest identifier by spelling.
    public static func timeZone(for name: String) -> String? {
        let identifiers = TimeZone.knownTimeZoneIdentifiers
        let city = name.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_").lowercased()
        if !city.isEmpty, let match = identifiers.first(where: { $0.split(separator: "/").last.map { $0.lowercased() == city } ?? false }) {
            return match
        }
        return closest(to: name, in: identifiers)
    }
}
