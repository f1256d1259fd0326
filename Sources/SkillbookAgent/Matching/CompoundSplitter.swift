import Foundation

/// Splits a request into clauses where it chains actions: "…, then …", "… and then …", "… and …",
/// "…? …", "…然后…", "…接着…", "…再…", "…并且…", and a comma in Chinese text. Whether the result is really
/// plan-shaped is decided by the matcher (each clause must be taken by a different target), so a
/// split in the middle of a title ("bread and milk") does no harm.
enum CompoundSplitter {
    static let english = [", and then ", " and then ", ", then ", " then ", "; ", "? ", " and also ", ", and ", " and "]
    static let chinese = ["然后", "接着", "之后", "并且", "再把", "再", "并"]

    /// Verbs that start an action of their own after "and", "then" or a comma.
    static let verbs: Set<String> = [
        "save", "send", "notify", "email", "mail", "text", "tell", "share", "upload", "post", "print", "delete",
        "remove", "move", "copy", "list", "show", "read", "write", "create", "add", "summarize", "summarise",
        "fetch", "download", "archive", "pack", "compress", "back", "backup", "tidy", "remind", "translate", "open",
        "run", "put", "store", "append", "mark", "sort", "filter", "extract", "join", "check", "make",
    ]

    /// Whether a clause starts with one of `verbs` (after "then", "also" or "please").
    static func startsWithVerb(_ clause: String) -> Bool {
        let words = clause.lowercased().split(whereSeparator: { !$0.isLetter })
        guard let first = words.first(where: { !["then", "also", "please", "just"].contains($0) }) else { return false }
        return verbs.contains(String(first))
    }

    static func clauses(of request: String) -> [String] {
        var pieces = [request]
        for marker in english {
            pieces = pieces.flatMap { split($0, at: marker) }
        }
        if request.contains(where: TextFolding.isCJK) {
            for marker in chinese + [",", "，"] {
                pieces = pieces.flatMap { split($0, at: marker) }
            }
        }
        return pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Splits at `marker` without regard to case.
    private static func split(_ text: String, at marker: String) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: marker, options: .caseInsensitive) {
            out.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        out.append(String(rest))
        return out
    }
}
