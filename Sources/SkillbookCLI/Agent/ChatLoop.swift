import Foundation
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
    let clock: Matcher.Clock
    var console: Console { invocation.console }
    /// How many of the session's messages are printed.
    var shown = 0

    static func run(
        host: PlaybookHost, workspace: AgentWorkspace, invocation: Invocation, clock: Matcher.Clock, fixedClock: Bool
    ) async -> ExitCode {
        let latest = LatestRequest()
        let events = EventPrinter(console: invocation.console, json: false)
        let runner = HostPlanRunner(
            host: host, workspace: workspace, clock: clock, trigger: "chat", request: { latest.text },
            onEvent: events.print)
        let planner = host.planner(workspace, clock: clock)
        let zone = clock.timeZone
        let fixed = clock
        let session = AgentSession(
            matcher: workspace.matcher, clock: { fixedClock ? fixed : Matcher.Clock(now: Date(), timeZone: zone) }, runner: runner,
            planner: planner, offers: workspace.offers)
        var loop = ChatLoop(session: session, workspace: workspace, invocation: invocation, clock: clock)
        return await loop.loop(latest: latest)
    }

    mutating func loop(latest: LatestRequest) async -> ExitCode {
        console.out("Skillbook chat: say what you want (English or 中文). /help lists the commands; /quit leaves.")
        while true {
            console.writeOut(prompt)
            guard let line = await console.readLine() else {
                console.out("")
                return .success
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text.hasPrefix("/") {
                if command(text) { return .success }
                continue
            }
            switch session.phase {
            case .awaitingInput(let missing):
                if let name = missing.first { session.provide(name, value(text, for: name)) }
            case .awaitingConfirmation where ["y", "yes", "是", "好"].contains(text.lowercased()):
                await runPending()
            case .awaitingConfirmation where ["n", "no", "否", "不"].contains(text.lowercased()):
                session.dismiss()
                console.out("agent: Not run. Say y to run it after all, or ask for something else.")
            case .idle where session.pending != nil && ["y", "yes"].contains(text.lowercased()):
                await runPending()
            default:
                latest.text = text
                await session.send(text)
            }
            printNew()
            if case .awaitingConfirmation = session.phase, let plan = session.pending?.plan {
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

    /// Runs the pending run; Ctrl-C (in the real process) cancels it, which rolls it back.
    func runPending() async {
        let session = session
        let task = Task { @MainActor in await session.confirm() }
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

    /// An answer for a missing input, coerced to its schema.
    func value(_ text: String, for name: String) -> Value {
        guard let target = session.pending?.target, let schema = workspace.matcher.targets.first(where: { $0.name == target })?.schema(of: name)
        else { return .string(text) }
        let coercion = Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone))
        return coercion.coerce(coercion.coerceCommandLine(text, to: schema), to: schema)
    }

    mutating func printNew() {
        let messages = session.messages
        for message in messages[min(shown, messages.count)...] where message.role == .agent {
            console.out("agent: " + message.text.replacingOccurrences(of: "\n", with: "\n       "))
        }
        shown = messages.count
    }

    /// A `/command`; returns true to leave.
    mutating func command(_ text: String) -> Bool {
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
        shown = session.messages.count
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
        Ctrl-C during a run cancels it and rolls it back; the chat goes on.
        """
}

/// The request a chat run was asked with (its journaled description).
final class LatestRequest: Sendable {
    private let value = Mutex("")
    var text: String {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
