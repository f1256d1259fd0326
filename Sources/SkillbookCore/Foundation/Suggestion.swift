import Foundation

/// "Did you mean" suggestions by edit distance.
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(2, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
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
        let a = Array(a)
        let b = Array(b)
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
