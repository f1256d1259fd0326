import Foundation
public import SkillbookCore

/// A long text the journal keeps once, in its `blobs` table, named by its SHA-256.
public struct JournalBlob: Sendable, Hashable {
    /// `SHA256.hex(of: text)`.
    public var hash: String
    public var text: String

    public init(_ text: String) {
        self.hash = SHA256.hex(of: text)
        self.text = text
    }

    /// Bytes of UTF-8.
    public var size: Int { text.utf8.count }
}

/// How the journal's value columns (a call's parameters and output, a step's output, a run's
/// inputs and outputs) keep long texts: once per content, in `blobs` (hash → text), shared by
/// every row and run that holds the same text; the run's rows say which blobs they use in
/// `run_blobs` (run → hash), so that pruning a run deletes the blobs nothing else uses
/// (`orphanedBlobs`). The same on every SQL backend.
///
/// In the stored JSON a long text is the object `{"\u0000blob": "<hash>"}`. No value of a run can
/// be mistaken for one: an object key of the value that starts with U+0000 is stored with one more
/// U+0000 in front, and read back without it.
///
/// The journal masks secrets before it stores a value (`RunRecorder`), so a blob never holds an
/// unmasked secret; texts over `JournalValueLimit` are cut by the engine before they get here.
public enum JournalBlobs {
    /// Texts of at least this many UTF-8 bytes go to `blobs`; shorter ones stay in the row's JSON.
    /// So does a text with a U+0000 in it, which PostgreSQL's `text` cannot hold (JSON escapes it).
    public static let inlineBytes = 4096

    /// Whether `text` is kept in `blobs`.
    static func isKeptApart(_ text: String) -> Bool {
        guard text.utf8.count >= inlineBytes else { return false }
        var text = text
        return text.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) == nil } ?? true }
    }

    /// The one key of a reference object.
    static let referenceKey = "\u{0}blob"

    /// `value` as a value column holds it, and the long texts it refers to (each once).
    public static func encode(_ value: Value) -> (json: String, blobs: [JournalBlob]) {
        guard needsRewriting(value) else { return (JSONText.encode(value), []) }
        var blobs: [JournalBlob] = []
        var seen: Set<String> = []
        let stored = rewrite(value) { text in
            let blob = JournalBlob(text)
            if seen.insert(blob.hash).inserted { blobs.append(blob) }
            return blob.hash
        }
        return (JSONText.encode(stored), blobs)
    }

    /// The value a column's decoded JSON stands for: references replaced by their texts (`text`
    /// reads a blob by its hash; `nil` when it is missing), escaped keys restored. `json` is the
    /// column's text, to skip the walk when it cannot hold a reference.
    public static func resolve<Failure: Error>(
        _ decoded: Value, json: String, text: (_ hash: String) throws(Failure) -> String?,
        missing: (_ hash: String) -> Failure
    ) throws(Failure) -> Value {
        guard mayHoldReferences(json) else { return decoded }
        return try restore(decoded, text: text, missing: missing)
    }

    /// Whether a stored JSON text may hold a reference or an escaped key: both have U+0000, which
    /// JSON writes `\u0000`.
    public static func mayHoldReferences(_ json: String) -> Bool {
        let needle = Array("\\u0000".utf8)
        var json = json
        return json.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                if bytes[index] == needle[0] {
                    var matched = true
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        matched = false
                        break
                    }
                    if matched { return true }
                }
                index += 1
            }
            return false
        }
    }

    private static func needsRewriting(_ value: Value) -> Bool {
        switch value {
        case .string(let text): isKeptApart(text)
        case .array(let items): items.contains(where: needsRewriting)
        case .object(let object): object.contains { $0.key.utf8.first == 0 || needsRewriting($0.value) }
        case .null, .bool, .int, .double: false
        }
    }

    private static func rewrite(_ value: Value, _ keep: (String) -> String) -> Value {
        switch value {
        case .string(let text) where isKeptApart(text):
            return .object([referenceKey: .string(keep(text))])
        case .array(let items):
            return .array(items.map { rewrite($0, keep) })
        case .object(let object):
            var stored = ValueObject()
            for (key, member) in object { stored[key.utf8.first == 0 ? "\u{0}" + key : key] = rewrite(member, keep) }
            return .object(stored)
        default:
            return value
        }
    }

    private static func restore<Failure: Error>(
        _ value: Value, text: (String) throws(Failure) -> String?, missing: (String) -> Failure
    ) throws(Failure) -> Value {
        switch value {
        case .array(let items):
            var restored: [Value] = []
            restored.reserveCapacity(items.count)
            for item in items { restored.append(try restore(item, text: text, missing: missing)) }
            return .array(restored)
        case .object(let object):
            if object.count == 1, case .string(let hash)? = object[referenceKey] {
                guard let stored = try text(hash) else { throw missing(hash) }
                return .string(stored)
            }
            var restored = ValueObject()
            for (key, member) in object {
                restored[key.utf8.first == 0 ? String(key.unicodeScalars.dropFirst()) : key] = try restore(member, text: text, missing: missing)
            }
            return .object(restored)
        default:
            return value
        }
    }
}
