import SkillbookCore
import SkillbookHost

/// A run's call attempts as the console's run API returns them, gathered a page at a time: every
/// attempt of a step's own call, and of its foreach items and batches the first `shownPerStep` and
/// up to `problemsPerStep` more that did not simply succeed (failed, retried, no result, undone);
/// the rest of each step's items are counted in `left_out`. So the answer (and the server's memory)
/// stays small whatever the run's size; `skillbook runs show RUN --json` has every attempt.
struct ConsoleCallDigest {
    static let shownPerStep = 20
    static let problemsPerStep = 100

    /// The items of one step left out, by outcome.
    struct LeftOut {
        var step: String
        var count = 0
        var succeeded = 0
        var failed = 0
        var uncertain = 0
        var first: String
        var last: String

        var json: Value {
            [
                "step": .string(step), "count": .int(count), "succeeded": .int(succeeded), "failed": .int(failed),
                "uncertain": .int(uncertain), "first": .string(first), "last": .string(last),
            ]
        }
    }

    private(set) var shown: [Value] = []
    private(set) var total = 0
    private var shownOfStep: [String: (plain: Int, problems: Int)] = [:]
    private var leftOut: [String: LeftOut] = [:]
    private var leftOutOrder: [String] = []

    mutating func add(_ call: JournalCall) {
        total += 1
        guard call.key.iteration != nil || call.key.batch != nil else { return show(call) }
        let step = call.key.step.description
        var counts = shownOfStep[step] ?? (0, 0)
        defer { shownOfStep[step] = counts }
        let plain = call.attempt == 1 && call.error == nil && call.output != nil && !call.compensated
        if counts.plain + counts.problems < Self.shownPerStep {
            counts.plain += 1
            return show(call)
        }
        if !plain, counts.problems < Self.problemsPerStep {
            counts.problems += 1
            return show(call)
        }
        let key = call.key.description
        var left = leftOut[step] ?? {
            leftOutOrder.append(step)
            return LeftOut(step: step, first: key, last: key)
        }()
        left.count += 1
        left.last = key
        if call.error != nil { left.failed += 1 } else if call.output == nil { left.uncertain += 1 } else { left.succeeded += 1 }
        leftOut[step] = left
    }

    private mutating func show(_ call: JournalCall) {
        shown.append(.object(RunTimelineJSON.call(call, key: true)))
    }

    /// What the run's answer gets: `calls`, `calls_total`, `calls_left_out`.
    func fields(into object: inout ValueObject) {
        object["calls"] = .array(shown)
        object["calls_total"] = .int(total)
        object["calls_left_out"] = .array(leftOutOrder.compactMap { leftOut[$0]?.json })
    }
}
