import Synchronization

/// The regular expressions of schemas (`pattern`, `patternProperties`), each compiled once and
/// kept: validating an object tests every key against every pattern, and compiling a pattern for
/// each test made a schema of P patterns validating an object of K keys cost K × P compilations —
/// quadratic in a hostile schema's size (the `json-schema` fuzzer's slow input: 40 patterns of ~120
/// characters, 2.8 s). At most `limit` patterns are kept; past it the cache starts again.
enum SchemaPatterns {
    static let limit = 512

    /// `pattern` compiled, or nil when it is not a regular expression (compiled once either way).
    static func regex(_ pattern: String) -> Regex<AnyRegexOutput>? {
        if let known = cache.withLock({ $0[pattern] }) { return known.regex }
        let compiled = Compiled(regex: (try? Regex(pattern))?.matchingSemantics(.unicodeScalar))
        cache.withLock { patterns in
            if patterns.count >= limit { patterns.removeAll(keepingCapacity: true) }
            patterns[pattern] = compiled
        }
        return compiled.regex
    }

    /// Whether `pattern` is compiled and kept.
    static func isKept(_ pattern: String) -> Bool { cache.withLock { $0[pattern] != nil } }

    /// A compiled pattern; `Regex` is immutable once built, so sharing it across threads is safe.
    private struct Compiled: @unchecked Sendable {
        let regex: Regex<AnyRegexOutput>?
    }

    private static let cache = Mutex<[String: Compiled]>([:])
}
