import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import Synchronization

/// One browser session's conversation with the agent: an `AgentSession` (the flow `skillbook chat`
/// uses) over the workspace as it was when the chat began, whose runs are journaled with trigger
/// `console` and whose events go to the console's event streams.
@MainActor final class ConsoleChat {
    let session: AgentSession
    let workspace: AgentWorkspace
    let host: PlaybookHost
    /// What the runner reads from other threads: the request and the run going on.
    let shared: ChatShared
    /// The work going on for this chat (a request being understood or planned, a run); `nil` when
    /// the agent waits for the person.
    private(set) var work: Task<Void, Never>?
    private var workNumber = 0
    /// What "save as playbook" writes: the run last proposed (kept once it ran).
    private(set) var saveable: PendingRun?
    /// The request `saveable` answers (the saved playbook's description).
    private(set) var saveableRequest = ""
    var lastUsed = ContinuousClock.now

    init(host: PlaybookHost, workspace: AgentWorkspace, hub: EventHub, local: LocalRuns) {
        self.host = host
        self.workspace = workspace
        let shared = ChatShared()
        self.shared = shared
        let zone = host.configuration.timeZone
        let runner = HostPlanRunner(
            host: host, workspace: workspace, clock: Matcher.ReferenceTime(now: Date(), timeZone: zone), trigger: .console,
            request: { shared.request },
            onEvent: { event in
                if case .runStarted(let id, _, _) = event {
                    shared.runID = id
                    local.noteStarted(id)
                }
                guard let id = shared.runID else { return }
                var object = RunEventJSON.object(event)
                object["run"] = .string(id)
                hub.publish(run: id, object, keep: true)
                if case .runFinished = event { hub.forget(run: id) }
            })
        session = AgentSession(flow: host.agentFlow(workspace, runner: runner), clock: { Matcher.ReferenceTime(now: Date(), timeZone: zone) })
    }

    var isBusy: Bool { work != nil }

    /// Starts `body` as the chat's work and waits until it ends or `patience` passes (a model may
    /// plan for long, a run may take long: the page follows them).
    func perform(patience: Duration, _ body: @escaping @MainActor (AgentSession) async -> Void) async {
        workNumber += 1
        let number = workNumber
        let session = session
        work = Task { @MainActor [weak self] in
            await body(session)
            guard let self, self.workNumber == number else { return }
            self.work = nil
            self.remember()
        }
        let deadline = ContinuousClock.now + patience
        while work != nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        remember()
    }

    /// Sends a request (a new turn: the run saved or shown is its answer).
    func send(_ text: String, patience: Duration) async {
        shared.request = text
        shared.runID = nil
        saveable = nil
        saveableRequest = text
        await perform(patience: patience) { await $0.send(text) }
    }

    /// Keeps what can be saved, and the secret values of its inputs (masked in what is shown; the
    /// flow has added them to the workspace's secrets already).
    private func remember() {
        guard let pending = session.pending else { return }
        saveable = pending
        for (key, value) in pending.inputs where isSecret(key, of: pending) {
            if case .string(let text) = value { workspace.secrets.add([text]) }
        }
    }

    /// Interrupts the work going on (a run rolls back what it completed) and waits for it.
    func interrupt() async {
        guard let work else { return }
        work.cancel()
        await work.value
    }

    /// Whether input `key` of the pending run's target is secret.
    func isSecret(_ key: String, of run: PendingRun) -> Bool {
        guard let target = run.target else { return false }
        return workspace.matcher.targets.first { $0.name == target }?.schema(of: key)?.secret ?? false
    }

    /// Whether `run` gives a value to a secret input (never written to a file).
    func holdsSecret(_ run: PendingRun) -> Bool {
        run.inputs.keys.contains { isSecret($0, of: run) }
    }

    /// `text` with every secret this chat knows masked (`AgentWorkspace.secrets`).
    func masked(_ text: String) -> String {
        workspace.secrets.redact(text)
    }
}

/// The parts of a chat the runner touches from the engine's threads.
final class ChatShared: Sendable {
    private let state = Mutex<(request: String, runID: String?)>(("", nil))
    var request: String {
        get { state.withLock { $0.request } }
        set { state.withLock { $0.request = newValue } }
    }
    /// The journal run of the chat's last run.
    var runID: String? {
        get { state.withLock { $0.runID } }
        set { state.withLock { $0.runID = newValue } }
    }
}
