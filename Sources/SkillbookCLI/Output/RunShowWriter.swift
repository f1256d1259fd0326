import Foundation
import SkillbookCore
import SkillbookHost

/// Writes `runs show` of a run read without its calls (`timelineWithoutCalls`), reading the calls a
/// page at a time (`forEachCallPage`) and writing as it goes: memory holds one page of calls and
/// the run's other records, whatever the number of calls.
struct RunShowWriter {
    var journal: any RunJournal
    var console: Console
    /// Where the text goes (one write per page).
    var write: (String) -> Void

    // MARK: JSON

    /// `--json`: the record as `JournalText.json` makes it, with every call attempt in `calls`,
    /// and `extra` fields at the end. The calls are read as stored (`forEachStoredCallPage`): their
    /// parameters and outputs in the writer's own form are re-indented, not decoded and encoded again.
    func json(_ timeline: RunTimeline, extra: ValueObject) async throws {
        guard case .object(var object) = JournalText.json(timeline) else { return }
        // The calls go where the placeholder is: the text before it, the calls, the text after it.
        let placeholder = "\u{0}calls\u{0}"
        object["calls"] = .string(placeholder)
        for (key, value) in extra { object[key] = value }
        let whole = JSONText.encode(.object(object), pretty: true)
        let quoted = JSONText.quoted(placeholder)
        guard let range = whole.range(of: quoted) else { return write(whole + "\n") }
        write(String(whole[..<range.lowerBound]) + "[")
        var count = 0
        var page: [UInt8] = []
        var calls = CallJSONWriter()
        try await journal.forEachStoredCallPage(of: timeline.run.id) { stored in
            page.removeAll(keepingCapacity: true)
            for call in stored {
                CallJSONWriter.append(count == 0 ? "\n    " : ",\n    ", to: &page)
                calls.append(call, to: &page)
                count += 1
            }
            write(String(decoding: page, as: UTF8.self))
        }
        write((count == 0 ? "]" : "\n  ]") + String(whole[range.upperBound...]) + "\n")
    }

    // MARK: Text

    /// The run's facts, then every event in time order — consecutive calls of one foreach or batch
    /// step that succeeded at the first attempt on one line — then the steps' table.
    func text(_ timeline: RunTimeline, footer: String) async throws {
        write(JournalText.header(timeline, console: console))
        var merger = Merger(others: JournalText.entries(timeline, console: console))
        var group: CallGroup?
        var pending = ""
        func emit(_ entry: JournalText.Entry) {
            for other in merger.before(time: entry.time, rank: entry.rank) { pending += line(other) }
            pending += line(entry)
        }
        try await journal.forEachCallPage(of: timeline.run.id) { calls in
            for call in calls {
                if var open = group, open.takes(call) {
                    open.add(call)
                    group = open
                    continue
                }
                if let open = group { emit(open.entry(console: console)) }
                group = nil
                if CallGroup.groupable(call) {
                    group = CallGroup(call)
                } else {
                    emit(JournalText.Entry(time: call.started, rank: 2, text: JournalText.callText(call, console: console)))
                }
            }
            write(pending)
            pending = ""
        }
        if let open = group { emit(open.entry(console: console)) }
        for other in merger.rest() { pending += line(other) }
        write(pending + JournalText.stepsTable(timeline) + footer)
    }

    private func line(_ entry: JournalText.Entry) -> String {
        "  \(JournalText.clockTime(entry.time))  \(entry.text)\n"
    }

    /// The timeline's entries other than calls, in time order, handed out as the calls reach them.
    struct Merger {
        var others: [JournalText.Entry]
        var next = 0

        /// The entries that come before one at `time` of `rank`.
        mutating func before(time: Date, rank: Int) -> ArraySlice<JournalText.Entry> {
            let start = next
            while next < others.count, (others[next].time, others[next].rank) < (time, rank) { next += 1 }
            return others[start..<next]
        }

        mutating func rest() -> ArraySlice<JournalText.Entry> {
            defer { next = others.count }
            return others[next...]
        }
    }

    /// Consecutive foreach items or batches of one step and skill, each succeeded at its first attempt.
    struct CallGroup {
        var step: StepPath
        var skill: String
        var first: JournalCall
        var last: JournalCall
        var count = 1
        var finished: Date?

        init(_ call: JournalCall) {
            step = call.key.step
            skill = call.skill
            first = call
            last = call
            finished = call.finished
        }

        /// Items and batches that succeeded at the first attempt, not undone: their lines say nothing more than one line for all.
        static func groupable(_ call: JournalCall) -> Bool {
            (call.key.iteration != nil || call.key.batch != nil) && call.attempt == 1 && call.error == nil && call.output != nil
                && !call.compensated
        }

        func takes(_ call: JournalCall) -> Bool {
            Self.groupable(call) && call.key.step == step && call.skill == skill
        }

        mutating func add(_ call: JournalCall) {
            last = call
            count += 1
            if let end = call.finished { finished = max(finished ?? end, end) }
        }

        /// One line: `each[item 1] … each[item 100000] (debug.echo) ✓ 100000 items, 2.31s`.
        func entry(console: Console) -> JournalText.Entry {
            guard count > 1 else {
                return JournalText.Entry(time: first.started, rank: 2, text: JournalText.callText(first, console: console))
            }
            let unit = first.key.batch != nil && first.key.iteration == nil ? "batches" : "items"
            var text = "\(first.key) … \(last.key) (\(skill)) " + console.style("✓", "32") + " \(count) \(unit)"
            if let finished { text += ", \(JournalText.duration(finished.timeIntervalSince(first.started)))" }
            return JournalText.Entry(time: first.started, rank: 2, text: text)
        }
    }
}
