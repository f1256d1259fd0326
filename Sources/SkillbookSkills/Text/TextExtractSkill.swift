import Foundation
import Synchronization
import SkillbookCore

/// `text.extract`: every match of a regular expression in a text.
struct TextExtractSkill: Skill {
    /// The longest text one call searches.
    static let maxTextLength = 5_000_000

    let descriptor = SkillDescriptor(
        id: "text.extract",
        title: "Extract matches from text",
        summary: "Finds every match of a regular expression in a text and returns { matches, count }: the "
            + "matched texts in order, or with group the text of that capture group (1 is the first pair of "
            + "parentheses). The syntax is ICU's, like most languages': \\d digits, \\w word characters, "
            + "[a-z] sets, (?i) to ignore case, (?m) for ^ and $ at every line. For example regex "
            + "[\\w.+-]+@[\\w-]+\\.[\\w.]+ finds e-mail addresses.",
        examples: [
            "extract the email addresses from this text", "find all the numbers in the text",
            "pull out the links", "grab all the urls from the text", "get every line that starts with TODO", "从文本里提取邮箱地址", "找出文本中的所有数字",
            "找出带 ERROR 的行", "find the lines with ERROR", "把以 ERROR 开头的行都找出来",
        ],
        tags: ["text", "regex", "extract"],
        kind: .query,
        parameters: .object(
            [
                "text": .string("The text to search.", maxLength: maxTextLength),
                "regex": .string("The regular expression to find, such as \\d+ or (?i)invoice #(\\d+).", minLength: 1, format: "regex"),
                "group": .integer(
                    "Return this capture group of each match instead of the whole match (0, the default). A match "
                        + "in which the group took no part adds nothing.",
                    minimum: 0, default: 0),
            ],
            required: ["text", "regex"]),
        output: .object(
            [
                "matches": .array(.string("A matched text."), "The matches in the order they occur in the text."),
                "count": .integer("How many matches there are.", minimum: 0),
            ],
            required: ["matches", "count"]),
        timeout: 30,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let text = parameters["text"]?.stringValue ?? ""
        let pattern = parameters["regex"]?.stringValue ?? ""
        let group = parameters["group"]?.intValue ?? 0
        guard text.utf16.count <= Self.maxTextLength else {
            throw SkillError("text.extract searches at most \(Self.maxTextLength) characters, got \(text.utf16.count)")
        }
        // Compile here so that a bad pattern is reported at once; matching runs on its own thread.
        let groups = try Self.compile(pattern).numberOfCaptureGroups
        guard group >= 0, group <= groups else {
            let has = groups == 0 ? "has no capture groups" : "has \(groups) capture group\(groups == 1 ? "" : "s")"
            throw SkillError(
                "regex '\(pattern)' \(has), so there is no group \(group); "
                    + "use 0 for the whole match or add parentheses around the part you want")
        }
        let matches = try await Abandonable.run { stopped in
            Self.matches(of: pattern, group: group, in: text, stopped: stopped)
        }
        return ["matches": .array(matches.map(Value.string)), "count": .int(matches.count)]
    }

    /// The compiled pattern, or an error that names it and says what is wrong.
    static func compile(_ pattern: String) throws(SkillError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            // Foundation says only "the value is invalid"; Swift's parser explains most mistakes.
            var reason = "check its brackets, parentheses and escapes"
            do {
                _ = try Regex(pattern)
            } catch {
                reason = "\(error)"
            }
            throw SkillError("regex '\(pattern)' is not a valid regular expression: \(reason)")
        }
    }

    /// The text of `group` in each match, stopping early once `stopped()` is true.
    private static func matches(
        of pattern: String, group: Int, in text: String, stopped: @escaping @Sendable () -> Bool
    ) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let subject = NSString(string: text)
        var found: [String] = []
        regex.enumerateMatches(in: text, range: NSRange(location: 0, length: subject.length)) { result, _, stop in
            if stopped() {
                stop.pointee = true
                return
            }
            guard let range = result?.range(at: group), range.location != NSNotFound else { return }
            found.append(subject.substring(with: range))
        }
        return found
    }
}

/// Runs pure work on a thread of its own so that the calling task can give up on it: when the task
/// is cancelled (a step timeout, Ctrl-C) the call throws `CancellationError` at once, and the work
/// is told to stop and its result dropped. For computations that cannot check for cancellation
/// themselves, such as one long regular-expression match; the work must have no side effects.
enum Abandonable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var cancelled = false
        var finished = false
    }

    static func run<T: Sendable>(_ work: @escaping @Sendable (_ stopped: @escaping @Sendable () -> Bool) -> T) async throws -> T {
        let state = Shared(State())
        let result = Shared<T?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let alreadyCancelled = state.withLock { state in
                    if state.cancelled { return true }
                    state.continuation = continuation
                    return false
                }
                if alreadyCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                Thread.detachNewThread {
                    let value = work { state.withLock { $0.cancelled } }
                    result.withLock { $0 = value }
                    let waiting = state.withLock { state in
                        state.finished = true
                        defer { state.continuation = nil }
                        return state.continuation
                    }
                    waiting?.resume()
                }
            }
        } onCancel: {
            let waiting = state.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.finished ? nil : state.continuation
            }
            waiting?.resume(throwing: CancellationError())
        }
        guard let value = result.withLock({ $0 }) else { throw CancellationError() }
        return value
    }
}

/// A value behind a `Mutex` that escaping closures can share.
private final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { body(&$0) }
    }
}
