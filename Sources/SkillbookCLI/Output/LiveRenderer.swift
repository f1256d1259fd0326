import Foundation
import SkillbookCore
import SkillbookRuntime

/// Draws a run on a terminal as a live list of its steps — a spinner and the elapsed time on the
/// running step, a progress bar with counts for batched and foreach steps — redrawn in place with
/// ANSI cursor movement at most `interval` apart, and the final state printed once at the end.
///
/// It is fed the run's events, applies them to a `RunSession` (the model an app binds to) and draws
/// from that model only. Everything happens on the main actor.
@MainActor
final class LiveRenderer {
    let session: RunSession
    let console: Console
    /// Seconds between redraws at least (about 10 a second).
    let interval: Double
    private let clock: any WallClock
    private let created: Date
    private var lastDraw: Date?
    /// Lines of the live frame on screen, below which the cursor sits.
    private var drawnLines = 0
    private var paused = false
    private(set) var isFinished = false

    static let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    static let barWidth = 12

    /// Paths in dry-run plans are shown relative to this folder when inside it.
    var base: String?

    init(session: RunSession, console: Console, clock: any WallClock = SystemClock(), interval: Double = 0.1) {
        self.session = session
        self.console = console
        self.clock = clock
        self.interval = interval
        created = clock.now()
    }

    /// Draws the run of `events` until the stream finishes, animating between events.
    func run(_ events: AsyncStream<RunEvent>) async {
        let interval = self.interval
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                self?.tick()
            }
        }
        for await event in events {
            handle(event)
        }
        ticker.cancel()
        finish()
    }

    /// Applies one event to the session and redraws if the last frame is old enough.
    func handle(_ event: RunEvent) {
        session.apply(event)
        switch event {
        case .runStarted(let runID, let playbook, _):
            printAbove(console.style("▶ \(playbook)", "1") + (runID.isEmpty ? " (dry run: nothing is recorded)" : " (run \(runID))"))
        case .warning(let warning):
            printAbove(console.style("! warning: ", "33") + (warning.step.map { "\($0): " } ?? "") + warning.message)
        case .runFinished:
            finish()
        default:
            draw()
        }
    }

    /// Redraws if due: the spinner and elapsed times move even when no event comes.
    func tick() {
        draw()
    }

    /// Clears the live frame and stops drawing, so a prompt can be written; `resume()` draws again
    /// below it. (Clearing rather than leaving the frame: events still queued would make it stale.)
    func pause() {
        guard !paused, !isFinished else { return }
        erase()
        paused = true
    }

    func resume() {
        guard paused else { return }
        paused = false
        draw(force: true)
    }

    /// Writes a line above the live frame (which is then drawn again below it).
    func printAbove(_ line: String) {
        erase()
        console.err(line)
        draw(force: true)
    }

    /// Replaces the live frame with the final state of every step and the outcome, once.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        erase()
        console.writeErr(finalFrame().map { $0 + "\n" }.joined())
    }

    // MARK: Drawing

    private func draw(force: Bool = false) {
        guard !paused, !isFinished else { return }
        let time = clock.now()
        if !force, let lastDraw, time.timeIntervalSince(lastDraw) < interval { return }
        lastDraw = time
        let lines = liveFrame(at: time)
        // Back to the frame's first line, then each line cleared and written, then clear what is below.
        var text = drawnLines > 0 ? "\r\u{1B}[\(drawnLines)A" : "\r"
        for line in lines { text += "\u{1B}[2K" + line + "\n" }
        text += "\u{1B}[J"
        console.writeErr(text)
        drawnLines = lines.count
    }

    private func erase() {
        guard drawnLines > 0 else { return }
        console.writeErr("\r\u{1B}[\(drawnLines)A\u{1B}[J")
        drawnLines = 0
    }

    /// The frame redrawn while the run goes on: as many steps as fit, and what the run is doing.
    func liveFrame(at time: Date) -> [String] {
        let size = console.terminalSize()
        let width = max(20, (size?.columns ?? 100) - 1)
        let maxLines = max(4, (size?.rows ?? 24) - 2)
        let rows = session.steps
        var status: String?
        if case .rollingBack(let step) = session.phase {
            status = console.style("  ↶ rolling back", "33") + (step.map { ": undoing \($0)" } ?? "")
        }
        let room = maxLines - (status == nil ? 0 : 1)

        var visible = rows.indices
        var above = 0
        var below = 0
        if rows.count > room {
            // Keep the step being worked on in view, with a line each for what is hidden.
            let shown = room - 2
            let focus = rows.firstIndex { $0.state == .running } ?? rows.firstIndex { $0.state == .pending } ?? rows.count - 1
            let start = min(max(0, focus - 2), rows.count - shown)
            visible = start..<(start + shown)
            above = start
            below = rows.count - visible.upperBound
        }
        let columns = Columns(rows[visible])
        var lines: [String] = []
        if above > 0 { lines.append(console.style("  ⋯ \(above) more", "2")) }
        for row in rows[visible] {
            lines.append(liveLine(row, columns: columns, at: time, width: width))
        }
        if below > 0 { lines.append(console.style("  ⋯ \(below) more", "2")) }
        if let status { lines.append(status) }
        return lines
    }

    private func liveLine(_ row: StepRow, columns: Columns, at time: Date, width: Int) -> String {
        let symbol: String
        var detail = ""
        switch row.state {
        case .running:
            let frame = Int(max(0, time.timeIntervalSince(created)) / interval) % Self.spinner.count
            symbol = console.style(String(Self.spinner[frame]), "36")
            detail = row.elapsed(at: time).map(Self.seconds) ?? ""
            if let total = row.total { detail += "  " + Self.bar(row.completed ?? 0, of: total) }
            // The skill's own count inside the call: a bar of its own for a single call, else beside the calls'.
            if let items = row.itemsTotal {
                detail += row.total == nil ? "  " + Self.bar(row.items ?? 0, of: items) : "  items \(row.items ?? 0)/\(items)"
            }
            if row.attempt > 1 { detail += "  attempt \(row.attempt)" }
        case .pending:
            symbol = console.style("·", "2")
        default:
            symbol = self.symbol(row.state)
            detail = summary(row)
        }
        var text = columns.pad(row) + detail
        while text.last == " " { text.removeLast() }
        return "  \(indent(row))\(symbol) " + Self.truncate(text, to: width - 4 - 2 * row.depth)
    }

    /// Every step with its final state, then how the run ended.
    func finalFrame() -> [String] {
        let columns = Columns(session.steps[...])
        var lines = session.steps.map { row in
            if let plan = row.plan, row.state == .planned || plan.ran {
                return "  \(indent(row))\(symbol(row.state)) " + DryRunText.line(plan, base: base)
            }
            return "  \(indent(row))\(symbol(row.state)) " + columns.pad(row) + summary(row)
        }
        if let result = session.result {
            let seconds = FixedPoint.text(result.finished.timeIntervalSince(result.started), digits: 2) + "s"
            let ok = result.status == .succeeded || result.status == .succeededWithErrors
            var line = "\(result.playbook) \(console.style(result.status.rawValue, ok ? "1;32" : "1;31")) in \(seconds)"
            if result.interrupted { line += " (interrupted)" }
            lines.append(line)
            if let error = result.error { lines.append("  \(FailureRemedy.explain(error, kind: result.failureKind))") }
        } else {
            lines.append("\(session.playbookName) did not finish")
        }
        return lines
    }

    /// A finished step's state in words, with its time, counts and error.
    private func summary(_ row: StepRow) -> String {
        let time = row.duration.map { " in " + Self.seconds($0) } ?? ""
        let counts = row.total.map { "  \(row.completed ?? 0)/\($0)" } ?? ""
        switch row.state {
        case .pending: return "not run"
        case .running: return "interrupted"
        case .succeeded: return "succeeded\(time)\(counts)"
        case .failed: return "failed\(time)\(counts)" + (row.error.map { ": \(FailureRemedy.explain($0, kind: row.failureKind))" } ?? "")
        case .skipped: return "skipped"
        case .compensated: return "rolled back" + (row.error.map { " (failed: \($0))" } ?? "")
        case .notCompensated: return "not rolled back: \(row.compensationError ?? "unknown reason")"
        case .planned: return "planned"
        }
    }

    private func symbol(_ state: StepRow.State) -> String {
        switch state {
        case .pending: console.style("·", "2")
        case .running: console.style("…", "36")
        case .succeeded: console.style("✓", "32")
        case .failed: console.style("✗", "31")
        case .skipped: console.style("-", "2")
        case .compensated: console.style("↶", "33")
        case .notCompensated: console.style("!", "31")
        case .planned: console.style("○", "36")
        }
    }

    private func indent(_ row: StepRow) -> String {
        String(repeating: "  ", count: row.depth)
    }

    // MARK: Text

    /// `[#######.....] 13/25`
    static func bar(_ completed: Int, of total: Int) -> String {
        let done = total > 0 ? min(barWidth, max(0, completed) * barWidth / total) : 0
        return "[" + String(repeating: "#", count: done) + String(repeating: ".", count: barWidth - done) + "] \(completed)/\(total)"
    }

    /// `0.4s`, `12.3s`, `2m05s`
    static func seconds(_ value: Double) -> String {
        if value < 60 { return FixedPoint.text(value, digits: 1) + "s" }
        let whole = Int(value.rounded(.down))
        return "\(whole / 60)m\(FixedPoint.padded(whole % 60, to: 2))s"
    }

    static func truncate(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }

    /// Aligns step ids and skills in columns.
    private struct Columns {
        var id: Int
        var skill: Int

        init(_ rows: ArraySlice<StepRow>) {
            id = min(32, rows.map { Self.name($0).count + 2 * $0.depth }.max() ?? 0)
            skill = min(32, rows.map { Self.target($0).count }.max() ?? 0)
        }

        /// A sub-playbook's steps show their own id, indented under the step running them.
        static func name(_ row: StepRow) -> String {
            row.id.id
        }

        /// The skill id, or `playbook:NAME` for a sub-playbook step.
        static func target(_ row: StepRow) -> String {
            row.target?.description ?? ""
        }

        func pad(_ row: StepRow) -> String {
            Self.padded(Self.name(row), id - 2 * row.depth) + "  " + Self.padded(Self.target(row), skill) + "  "
        }

        static func padded(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
    }
}
