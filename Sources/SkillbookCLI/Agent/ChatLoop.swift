import Foundation
import Observation
import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import Synchronization

/// The terminal side of `skillbook chat`: reads lines, feeds them to an `AgentSession`, prints the
/// agent's messages on stdout and the runs' events on stderr (as `run` prints them off a terminal).
@MainActor
struct ChatLoop {
    let session: AgentSession
    let workspace: AgentWorkspace
    let invocation: Invocation
    var console: Console { invocation.console }
    /// How many of the session's messages are printed.
    let shown = Shown()
    let lines: LineReader

    static func run(
        host: PlaybookHost, workspace: AgentWorkspace, invocation: Invocation, clock: Matcher.ReferenceTime, fixedClock: Bool
    ) async -> ExitCode {
        let latest = LatestRequest()
        let events = EventPrinter(console: invocation.console, json: false)
        let runner = HostPlanRunner(
            host: host, workspace: workspace, clock: clock, trigger: .chat, request: { latest.text },
            onEvent: events.print)
        let zone = clock.timeZone
        let fixed = clock
        let session = AgentSession(
            flow: host.agentFlow(workspace, runner: runner), clock: { fixedClock ? fixed : Matcher.ReferenceTime(now: Date(), timeZone: zone) })
        let loop = ChatLoop(
            session: session, workspace: workspace, invocation: invocation, lines: LineReader(console: invocation.console))
        loop.follow()
        return await loop.loop(latest: latest)
    }

    func loop(latest: LatestRequest) async -> ExitCode {
        console.out("Skillbook chat: say what you want (English or 中文). /help lists the commands; /quit leaves.")
        while true {
            let line: String
            switch await lines.next(prompt: prompt, interruptible: session.phase == .awaitingConfirmation && invocation.handlesSignals) {
            case .end:
                console.out("")
                return .success
            case .interrupted:
                // Ctrl-C at `run it? [y/N]>` answers no.
                console.out("")
                await session.dismiss()
                printNew()
                continue
            case .text(let text):
                line = text
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text.hasPrefix("/") {
                if command(text) { return .success }
                continue
            }
            switch session.phase {
            case .awaitingInput:
                await cancellingOnCtrlC { await $0.provide(text) }
            case .awaitingConfirmation where ["y", "yes", "是", "好"].contains(text.lowercased()):
                await cancellingOnCtrlC()
            case .awaitingConfirmation where ["n", "no", "否", "不"].contains(text.lowercased()):
                await session.dismiss()
            case .idle where session.pending != nil && ["y", "yes"].contains(text.lowercased()):
                await cancellingOnCtrlC()
            default:
                latest.text = text
                await cancellingOnCtrlC { await $0.send(text) }
            }
            printNew()
            if case .awaitingConfirmation = session.phase, let pending = session.pending, pending.layer == .plan, let plan = pending.plan {
                let actions = Set(plan.plan.steps.filter { workspace.isAction($0.target, isPlaybook: $0.isPlaybook) }.map(\.id))
                console.writeOut(RouteText.plan(plan.plan, actions: actions))
            }
        }
    }

    var prompt: String {
        switch session.phase {
        case .awaitingInput(let missing): "\(missing.first ?? "")> "
        case .awaitingConfirmation: "run it? [y/N]> "
        default: "> "
        }
    }

    /// Does `work` (by default: runs the pending run; a request or an answer may run a read-only
    /// query at once); Ctrl-C (in the real process) cancels it, and a run rolls back.
    func cancellingOnCtrlC(_ work: @escaping @MainActor @Sendable (AgentSession) async -> Void = { await $0.confirm() }) async {
        let session = session
        let task = Task { @MainActor in await work(session) }
        let console = console
        let watcher =
            invocation.handlesSignals
            ? ShutdownSignal(
                onShutdown: { _ in
                    console.writeErr("\nskillbook: cancelling the run; rolling back (the chat goes on)\n")
                    task.cancel()
                }, onRepeat: { _ in })
            : nil
        await task.value
        watcher?.stop()
    }

    /// Prints the agent's messages as the session adds them (a run's "Running …" before its end).
    func follow() {
        withObservationTracking {
            _ = session.messages
        } onChange: {
            Task { @MainActor in
                printNew()
                follow()
            }
        }
    }

    func printNew() {
        let messages = session.messages
        for message in messages[min(shown.count, messages.count)...] where message.role == .agent {
            console.out("agent: " + message.text.replacingOccurrences(of: "\n", with: "\n       "))
        }
        shown.count = messages.count
    }

    /// A `/command`; returns true to leave.
    func command(_ text: String) -> Bool {
        let name = text.split(separator: " ").first.map(String.init) ?? text
        switch name {
        case "/quit", "/exit", "/q":
            return true
        case "/skills":
            for skill in workspace.registry.descriptors {
                console.out("\(skill.title) [\(skill.id), \(skill.kind.rawValue)]")
                console.out("  \(skill.summary.split(separator: "\n").joined(separator: " "))")
            }
        case "/playbooks":
            if workspace.playbooks.isEmpty { console.out("(no playbooks in this workspace)") }
            for playbook in workspace.playbooks {
                console.out("\(playbook.name): \(playbook.description.split(separator: "\n").joined(separator: " "))")
            }
        case "/history":
            for message in session.messages {
                console.out("\(message.role == .user ? "you" : "agent"): \(message.text)")
            }
        case "/help":
            console.out(Self.help)
        default:
            let suggestion = Suggestion.closest(to: name, in: Self.commands).map { "; did you mean \($0)?" } ?? ""
            console.out("unknown command \(name)\(suggestion) (/help lists them)")
        }
        shown.count = session.messages.count
        return false
    }

    static let commands = ["/skills", "/playbooks", "/history", "/help", "/quit"]
    static let help = """
        Type a request, e.g. "remind me tomorrow 9am to call Ada" or "明天早上9点提醒我交报告".
        When asked, answer the missing input, or y / n to run what is shown.
          /skills     the skills: title, id and kind (query or action), summary
          /playbooks  the playbooks of this workspace
          /history    the conversation so far
          /help       this
          /quit       leave (so does end of input, Ctrl-D)
        Ctrl-C during a run cancels it and rolls it back; at run it? it answers no. The chat goes on.
        """
}

/// How many of the session's messages the chat has printed.
@MainActor final class Shown {
    var count = 0
}

/// The chat's input lines. A read the signal interrupted is not lost: the next call takes its line.
@MainActor final class LineReader {
    enum Line { case text(String), end, interrupted }

    let console: Console
    private var outstanding: Task<String?, Never>?

    init(console: Console) {
        self.console = console
    }

    /// Writes `prompt` and reads the next line; with `interruptible`, SIGINT (from the moment the
    /// prompt shows) ends the wait with `.interrupted` and SIGTERM with `.end`.
    func next(prompt: String, interruptible: Bool) async -> Line {
        let console = console
        guard interruptible else {
            console.writeOut(prompt)
            let read = outstanding ?? Task { await console.readLine() }
            outstanding = nil
            return await read.value.map(Line.text) ?? .end
        }
        let read = outstanding ?? Task { await console.readLine() }
        outstanding = read
        let answer = Mutex<CheckedContinuation<Line, Never>?>(nil)
        // Ctrl-C (SIGINT) answers the prompt with no; SIGTERM (kill, a service manager) ends the
        // chat as the end of input does. The watcher is stopped as soon as the prompt is answered
        // either way, so the next signal reaches whatever runs then.
        let watcher = Mutex<ShutdownSignal?>(nil)
        let line = await withCheckedContinuation { (continuation: CheckedContinuation<Line, Never>) in
            answer.withLock { $0 = continuation }
            watcher.withLock {
                $0 = ShutdownSignal(
                    onShutdown: { signal in answer.withLock { $0.take() }?.resume(returning: signal == SIGTERM ? .end : .interrupted) },
                    onRepeat: { _ in })
            }
            console.writeOut(prompt)
            Task {
                let line = await read.value.map(Line.text) ?? .end
                answer.withLock { $0.take() }?.resume(returning: line)
            }
        }
        watcher.withLock { $0?.stop() }
        if case .interrupted = line { return line }
        outstanding = nil
        return line
    }
}

/// The request a chat run was asked with (its journaled description).
final class LatestRequest: Sendable {
    private let value = Mutex("")
    var text: String {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
