/// How long a text the journal keeps whole.
///
/// A run handles values of any size, but the journal keeps the large texts of what it can do again
/// cut short: a query's output (a resume runs the query again) and parameters (a resume evaluates
/// them again), a step's output (a resume works it out again from its calls) and the run's outputs.
/// A cut text keeps its first `keptBytes` and ends in a marker with its size and digest, and an
/// output record is marked like a masked one (`outputMasked`), so nothing reads it as the value the
/// run used. The parameters of an action (and of a step whose `rollback:` reads them) and the fields
/// of an action's output that its undo reads are kept whole: a rollback needs them to undo the
/// action (an action that does not say which fields it reads keeps its whole output). What is kept
/// whole, the journal keeps once per content (its blobs).
public struct JournalValueLimit: Sendable, Hashable {
    /// Texts longer than this many UTF-8 bytes are cut.
    public var bytes: Int
    /// How much of a cut text is kept, for `runs show`.
    public var keptBytes: Int

    public init(bytes: Int, keptBytes: Int = 1024) {
        self.bytes = max(bytes, 1)
        self.keptBytes = min(max(keptBytes, 0), self.bytes)
    }

    /// `Limits.journalTextBytes` (1 MiB).
    public static let standard = JournalValueLimit(bytes: Limits.journalTextBytes)

    /// `value` with every text longer than `bytes` cut, and whether one was.
    public func bounded(_ value: Value) -> (value: Value, cut: Bool) {
        switch value {
        case .string(let text) where text.utf8.count > bytes:
            return (.string(cut(text)), true)
        case .array(let items):
            var cutAny = false
            let bounded = items.map { item in
                let (kept, cut) = self.bounded(item)
                cutAny = cutAny || cut
                return kept
            }
            return cutAny ? (.array(bounded), true) : (value, false)
        case .object(let object):
            return boundedMembers(of: object, except: [], value)
        default:
            return (value, false)
        }
    }

    /// `output` with every text longer than `bytes` cut, except in the top-level fields `keptWhole`
    /// names; `nil` keeps it all.
    public func bounded(_ output: Value, keepingWhole keptWhole: Set<String>?) -> (value: Value, cut: Bool) {
        guard let keptWhole else { return (output, false) }
        guard case .object(let object) = output else { return bounded(output) }
        return boundedMembers(of: object, except: keptWhole, output)
    }

    /// `object` (which is `value`) with the long texts of its members cut, but for those named in
    /// `keptWhole`; `value` itself when nothing was cut.
    private func boundedMembers(
        of object: ValueObject, except keptWhole: Set<String>, _ value: Value
    ) -> (value: Value, cut: Bool) {
        var cutAny = false
        var bounded = object
        for (key, member) in object where !keptWhole.contains(key) {
            let (kept, cut) = self.bounded(member)
            if cut {
                bounded[key] = kept
                cutAny = true
            }
        }
        return cutAny ? (.object(bounded), true) : (value, false)
    }

    /// The first `keptBytes` of `text` (whole characters only) and the marker.
    func cut(_ text: String) -> String {
        var prefix = Array(text.utf8.prefix(keptBytes))
        // A character split at the end is left out whole (at most three bytes to drop).
        var kept = String(validating: prefix, as: UTF8.self)
        while kept == nil, !prefix.isEmpty {
            prefix.removeLast()
            kept = String(validating: prefix, as: UTF8.self)
        }
        return (kept ?? "")
            + "… [cut by the journal: \(text.utf8.count) bytes, fnv1a64 \(SourceHash.of(text))]"
    }
}
