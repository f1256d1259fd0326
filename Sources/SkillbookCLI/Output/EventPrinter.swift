import SkillbookHost
import Foundation
import SkillbookCore
import SkillbookRuntime
import Synchronization

/// At most one progress line per second per step, plus the last (a step's count reaching its
/// total): what a piped run writes, so a cron log of a 100,000-item foreach holds a few lines.
final class ProgressThrottle: Sendable {
    private let printed = Mutex<[String: ContinuousClock.Instant]>([:])
    let interval: Duration

    init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// Whether the line of `step` at `completed` of `total` is written (and, if so, when it was).
    func admits(_ step: String, completed: Int, total: Int) -> Bool {
        let now = ContinuousClock.now
        return printed.withLock { printed in
            if completed < total, let last = printed[step], now - last < interval { return false }
            printed[step] = now
            return true
        }
    }
}

/// Renders run events for people (one line per event on stderr) or as JSON lines on stdout.
struct EventPrinter: Sendable {
    var console: Console
    var json: Bool
    /// Paths in dry-run plans are shown relative to this folder when inside it.
    var base: String? = nil
    /// Progress lines: at most one a second per step, plus the last.
    var throttle = ProgressThrottle()

    func print(_ event: RunEvent) {
        if json {
            console.out(JSONText.encode(.object(RunEventJSON.object(event))))
            return
        }
        switch event {
        case .runStarted(let runID, let playbook, _):
            console.err(console.style("▶ \(playbook)", "1") + (runID.isEmpty ? " (dry run: nothing is recorded)" : " (run \(runID))"))
        case .stepStarted(let step, let skill, let attempt, _):
            console.err("  … \(step) (\(skill))\(attempt > 1 ? ", attempt \(attempt)" : "")")
        case .stepProgress(let step, let completed, let total, let unit):
            // One line per call done, at most one a second per step plus the last; a skill's own
            // counts inside a call are for the live display only.
            guard completed > 0, unit != .skill, throttle.admits("\(step)", completed: completed, total: total) else { break }
            switch unit {
            case .batches(let items, let of):
                console.err("    \(step): batch \(completed)/\(total) (\(DigitGrouping.grouped(items))/\(DigitGrouping.grouped(of)) items)")
            case .iterations: console.err("    \(step): item \(completed)/\(total)")
            case .skill: break
            }
        case .stepSkipped(let step, let reason):
            console.err("  - \(step) skipped: \(reason)")
        case .stepRetrying(let step, let attempt, let error, let delay):
            console.err("  ↻ \(step) attempt \(attempt) failed: \(error); retrying in \(JSONText.number(delay))s")
        case .stepSucceeded(let step, _, let duration):
            console.err("  " + console.style("✓", "32") + " \(step) \(FixedPoint.text(duration, digits: 2) + "s")")
        case .stepFailed(let step, let error, let kind, let willContinue):
            let text = FailureRemedy.explain(error, kind: kind)
            console.err("  " + console.style("✗", "31") + " \(step): \(text)\(willContinue ? " (continuing)" : "")")
        case .stepWaiting(let step, let wait):
            console.err("  ⧗ \(step): \(wait)")
        case .confirmationRequested(let request):
            let calls = request.calls > 1 ? " (\(request.calls) calls)" : ""
            console.err("  ? \(request.step) (\(request.skill)) asks for confirmation\(calls)")
        case .confirmationAnswered(_, .awaitApproval):
            // The `run.waiting` line that follows says it.
            break
        case .confirmationAnswered(let step, let answer):
            console.err("  \(answer.isApproved ? "✓ approved" : "✗ not approved"): \(step)")
        case .stepPlanned(let plan):
            console.err("  " + DryRunText.line(plan, base: base))
        case .rollbackStarted:
            // The compensation lines that follow say what is undone.
            break
        case .compensationStarted(let step):
            console.err("  ↶ undoing \(step)")
        case .compensationSucceeded(let step):
            console.err("  ↶ \(step) undone")
        case .compensationFailed(let step, let error):
            console.err("  " + console.style("!", "31") + " \(step) could not be undone: \(error)")
        case .warning(let warning):
            console.err("  " + console.style("!", "33") + " warning: \(warning.step.map { "\($0): " } ?? "")\(warning.message)")
        case .runWaiting(let request):
            console.err("  " + console.style("⏸", "33") + " \(request.step) (\(request.skill)) waits for an approval")
        case .runFinished(let result):
            let seconds = FixedPoint.text(result.finished.timeIntervalSince(result.started), digits: 2) + "s"
            let ok = result.status == .succeeded || result.status == .succeededWithErrors
            let status = console.style(result.status.rawValue, ok ? "1;32" : result.status == .waiting ? "1;33" : "1;31")
            var line = "\(result.playbook) \(status) in \(seconds)"
            if result.interrupted { line += " (interrupted)" }
            console.err(line)
            if let error = result.error { console.err("  \(FailureRemedy.explain(error, kind: result.failureKind))") }
            for step in result.steps where step.status == .notCompensated || step.status == .uncertain {
                console.err("  not undone: \(step.id): \(step.compensationError ?? "unknown reason")")
            }
        }
    }
}
