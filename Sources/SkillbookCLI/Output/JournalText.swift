import SkillbookHost
import Foundation
import SkillbookCore
import SkillbookRuntime

/// How journal records read on the terminal and in `--json`.
enum JournalText {
    // MARK: Times

    /// The zone times are shown in: the workspace's (`HostConfiguration.timeZone`), set by the
    /// commands that print runs, so `runs`, `runs show` and `rollback` agree.
    @TaskLocal static var timeZone: TimeZone = .current

    /// `2026-05-01 09:00:00 +02:00` in `timeZone`, with its offset.
    static func localTime(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0) + " " + timeZone.offsetText(at: date)
    }

    /// `09:00:00.123` in `timeZone`.
    static func clockTime(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
        return String(
            format: "%02d:%02d:%02d.%03d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, (parts.nanosecond ?? 0) / 1_000_000)
    }

    /// ISO 8601 in UTC with milliseconds, for JSON.
    static func iso(_ date: Date) -> String { RunTimelineJSON.iso(date) }

    private static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// `0.02s`, `12.3s`, `2m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return FixedPoint.text(seconds, digits: 2) + "s" }
        if seconds < 60 { return FixedPoint.text(seconds, digits: 1) + "s" }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return "\(whole / 60)m\(FixedPoint.padded(whole % 60, to: 2))s" }
        return "\(whole / 3600)h\(FixedPoint.padded((whole % 3600) / 60, to: 2))m"
    }

    // MARK: Runs

    /// The first characters of a run id, as the table shows it (any unique prefix is accepted back).
    static func shortID(_ id: String) -> String { String(id.prefix(8)) }

    /// A WORKER column is added when some run was run by a worker (a PostgreSQL state).
    static func table(_ runs: [JournalRun], now: Date) -> String {
        let workers = runs.contains { $0.worker != nil }
        let rows = runs.map { run -> [String] in
            let duration = run.duration.map(duration) ?? (run.status == .running ? duration(now.timeIntervalSince(run.started)) + "…" : "-")
            let row = [shortID(run.id), run.playbook, run.status.rawValue, localTime(run.started), duration]
            return workers ? row + [run.worker ?? "-"] : row
        }
        let header = ["ID", "PLAYBOOK", "STATUS", "STARTED", "DURATION"]
        return TextTable(header: workers ? header + ["WORKER"] : header, rows: rows).rendered
    }

    static func row(_ run: JournalRun) -> Value {
        var object = ValueObject()
        object["id"] = .string(run.id)
        object["playbook"] = .string(run.playbook)
        object["status"] = .string(run.status.rawValue)
        object["started"] = .string(iso(run.started))
        object["finished"] = run.finished.map { .string(iso($0)) } ?? .null
        object["duration"] = run.duration.map { .double(RunEventJSON.rounded($0)) } ?? .null
        object["trigger"] = .string(run.trigger.rawValue)
        object["scheduled_at"] = run.scheduledAt.map { .string(iso($0)) } ?? .null
        if let reason = run.interruption, run.status == .interrupted { object["interruption"] = .string(reason) }
        if let error = run.error { object["error"] = .string(error) }
        if let worker = run.worker { object["worker"] = .string(worker) }
        return .object(object)
    }

    // MARK: One run

    /// The whole record; `runs show --json` writes the calls of a run read without them a page at a
    /// time where this puts `calls` (see `RunShowWriter`).
    static func json(_ timeline: RunTimeline) -> Value {
        let run = timeline.run
        guard case .object(var object) = row(run) else { return .null }
        object["file"] = run.file.map(Value.string) ?? .null
        object["source_hash"] = .string(run.sourceHash)
        object["source"] = .string(timeline.source)
        object["inputs"] = .object(run.inputs)
        object["outputs"] = run.outputs.map(Value.object) ?? .null
        object["interrupted_by_signal"] = .bool(run.interruptedBySignal)
        if let holder = run.holder {
            object["process"] = ["pid": .int(Int(holder.pid)), "host": .string(holder.host)]
        }
        object["heartbeat"] = run.heartbeat.map { .string(iso($0)) } ?? .null
        object["sessions"] = .array(
            timeline.sessions.map { session in
                [
                    "kind": .string(session.kind), "pid": .int(Int(session.pid)), "host": .string(session.host),
                    "started": .string(iso(session.started)), "ended": session.ended.map { .string(iso($0)) } ?? .null,
                    "outcome": session.outcome.map(Value.string) ?? .null,
                ]
            })
        object["calls"] = .array(timeline.calls.map { .object(RunTimelineJSON.call($0)) })
        object["steps"] = .array(timeline.steps.map { .object(RunTimelineJSON.step($0)) })
        object["compensations"] = .array(
            timeline.compensations.map { compensation in
                [
                    "step": .string(compensation.key.step.description), "iteration": compensation.key.iteration.map(Value.int) ?? .null,
                    "batch": compensation.key.batch.map(Value.int) ?? .null,
                    "error": compensation.error.map(Value.string) ?? .null, "finished": .string(iso(compensation.finished)),
                ]
            })
        object["report"] = timeline.report ?? .null
        return .object(object)
    }

    /// The run's facts, up to the `Timeline:` heading.
    static func header(_ timeline: RunTimeline, console: Console) -> String {
        let run = timeline.run
        var lines: [String] = []
        lines.append(console.style("run \(run.id)", "1") + "  \(run.playbook)")
        var facts: [(String, String)] = []
        var status = run.status.rawValue
        if run.status == .interrupted, let reason = run.interruption { status += " (\(reason))" }
        if run.status == .running, let holder = run.holder { status += " (process \(holder.pid) on \(holder.host))" }
        facts.append(("status", status))
        // The worker that holds (or last held) it, on a PostgreSQL state.
        if let worker = run.worker {
            facts.append(("worker", worker + (run.holder.map { " (process \($0.pid) on \($0.host))" } ?? "")))
        }
        if let file = run.file { facts.append(("file", file)) }
        facts.append(("trigger", run.trigger.rawValue))
        if let scheduled = run.scheduledAt { facts.append(("scheduled", localTime(scheduled))) }
        facts.append(("started", localTime(run.started)))
        if let finished = run.finished {
            facts.append(("finished", localTime(finished)))
            facts.append(("duration", duration(finished.timeIntervalSince(run.started))))
        }
        facts.append(("inputs", JSONText.encode(.object(run.inputs))))
        if let outputs = run.outputs, !outputs.isEmpty { facts.append(("outputs", JSONText.encode(.object(outputs)))) }
        if let error = run.error { facts.append(("error", error)) }
        for (name, value) in facts {
            lines.append("  \(name)\(String(repeating: " ", count: max(1, 10 - name.count)))\(value)")
        }
        lines.append("")
        lines.append("Timeline:")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `Steps:` table of the run's report (empty before it ended).
    static func stepsTable(_ timeline: RunTimeline) -> String {
        guard case .array(let steps)? = timeline.report, !steps.isEmpty else { return "" }
        let rows = steps.map { step -> [String] in
            let attempts = step["attempts"]?.intValue ?? 0
            var note = step["error"]?.stringValue ?? ""
            if let undo = step["compensation_error"]?.stringValue { note += (note.isEmpty ? "" : "; ") + "not undone: \(undo)" }
            return [
                "  " + (step["id"]?.stringValue ?? "?"), step["skill"]?.stringValue ?? "", step["status"]?.stringValue ?? "",
                attempts > 1 ? "\(attempts) attempts" : "", note,
            ]
        }
        return "\nSteps:\n"
            + TextTable(header: ["  STEP", "SKILL", "STATUS", "", ""], rows: rows).rendered.split(separator: "\n")
            .map { String(String($0.reversed().drop(while: { $0 == " " })).reversed()) }
            .joined(separator: "\n") + "\n"
    }

    /// One call attempt's line of the timeline.
    static func callText(_ call: JournalCall, console: Console) -> String {
        var text = "\(call.key) (\(call.skill))"
        if call.attempt > 1 { text += " attempt \(call.attempt)" }
        if let error = call.error {
            text += " " + console.style("✗", "31") + " \(error)"
        } else if call.output != nil {
            text += " " + console.style("✓", "32")
            if let finished = call.finished { text += " \(duration(finished.timeIntervalSince(call.started)))" }
        } else {
            text += " " + console.style("? started, no result recorded (its process stopped during the call)", "33")
        }
        if call.compensated { text += " (undone later)" }
        return text
    }

    struct Entry {
        var time: Date
        /// Breaks ties between entries of the same time.
        var rank: Int
        var text: String
    }

    /// The timeline's entries in time order (the calls `timeline` holds among them; `runs show` reads
    /// a run without its calls and merges them in, a page at a time: see `RunShowWriter`).
    static func entries(_ timeline: RunTimeline, console: Console) -> [Entry] {
        var entries: [Entry] = []
        for session in timeline.sessions {
            let verb = session.kind == "run" ? "run started" : "\(session.kind) started"
            entries.append(Entry(time: session.started, rank: 0, text: "▶ \(verb) by process \(session.pid) on \(session.host)"))
            if let ended = session.ended, let outcome = session.outcome {
                let text =
                    switch outcome {
                    case "interrupted": console.style("✗ process \(session.pid) stopped without finishing (interrupted)", "31")
                    case "abandoned": "■ \(session.kind) gave the run back without running it"
                    default: "■ \(session.kind) ended: \(outcome)"
                    }
                entries.append(Entry(time: ended, rank: 9, text: text))
            }
        }
        for call in timeline.calls {
            entries.append(Entry(time: call.started, rank: 2, text: callText(call, console: console)))
        }
        for step in timeline.steps {
            let text =
                switch step.status {
                case .succeeded: "✓ step \(step.step) succeeded"
                case .skipped: "- step \(step.step) skipped"
                case .failed: "✗ step \(step.step) failed" + (step.error.map { ": \($0)" } ?? "")
                default: "step \(step.step) \(step.status.rawValue)"
                }
            entries.append(Entry(time: step.finished, rank: 3, text: text))
        }
        for wait in timeline.waits {
            var text = "⧗ \(wait.step) " + wait.wait.describe("waited for")
            if let ended = wait.ended { text += " (\(duration(ended.timeIntervalSince(wait.started)))" + (wait.outcome.map { ", \($0))" } ?? ")") }
            entries.append(Entry(time: wait.started, rank: 1, text: text))
        }
        for compensation in timeline.compensations {
            let text =
                compensation.error.map { "! \(compensation.key) could not be undone: \($0)" } ?? "↶ \(compensation.key) undone"
            entries.append(Entry(time: compensation.finished, rank: 4, text: text))
        }
        return entries.enumerated().sorted { a, b in
            (a.element.time, a.element.rank, a.offset) < (b.element.time, b.element.rank, b.offset)
        }.map(\.element)
    }
}
