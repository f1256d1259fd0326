import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost

/// `/api/v1/chat…`: the browser session's conversation with the agent — the same `AgentSession`
/// flow as `skillbook chat` — its messages, the decision card, the plan card, approving or
/// declining what it proposes, and saving it as a playbook. A chat belongs to the browser session
/// (its CSRF token names it); its runs are journaled with trigger `console` and their events go to
/// `/api/v1/events?run=ID`.
extension ConsoleAPI {
    /// How long a request waits for the agent before answering with the state so far (the page
    /// follows the rest: a model plans, a run goes on).
    static let chatPatience = Duration.seconds(2)

    func chatRoute(_ request: ServerRequest, _ route: [String], key: String) async -> ServerResponse? {
        let get = request.method == "GET" || request.method == "HEAD"
        let post = request.method == "POST"
        switch (route, get, post) {
        case (["chat"], true, _): return await chatState(key)
        case (["chat"], _, true): return await chatSend(key, request)
        case (["chat", "approve"], _, true): return await chatApprove(key)
        case (["chat", "decline"], _, true): return await chatDecline(key)
        case (["chat", "save"], _, true): return await chatSave(key, request)
        case (["chat", "reset"], _, true):
            await chats.end(key)
            return json(200, ["reset": true])
        default: return nil
        }
    }

    static let chatRoutes = [["chat"], ["chat", "approve"], ["chat", "decline"], ["chat", "save"], ["chat", "reset"]]

    private func chatState(_ key: String) async -> ServerResponse {
        guard let chat = await chats.existing(key) else { return json(200, .object(ChatJSON.empty)) }
        return json(200, .object(await ChatJSON.state(chat)))
    }

    private func chatSend(_ key: String, _ request: ServerRequest) async -> ServerResponse {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        guard case .string(let raw)? = body["message"] else {
            return json(400, ConsoleJSON.error("the body needs \"message\": the request or answer, as text"))
        }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return json(400, ConsoleJSON.error("\"message\" is empty: say what you want, e.g. \"list my notes\"")) }
        guard text.count <= ChatLimits.messageLength else {
            return json(413, ConsoleJSON.error("\"message\" has \(text.count) characters; at most \(ChatLimits.messageLength) are taken"))
        }
        let chat: ConsoleChat
        switch await beginChat(key) {
        case .success(let found): chat = found
        case .failure(let refusal): return refusal.response
        }
        if await chat.isBusy {
            return json(409, ConsoleJSON.error("the agent is still on the last request (\(await ChatJSON.phaseName(chat.session.phase))); wait for it"))
        }
        if await chat.session.messages.count >= ChatLimits.messages {
            return json(
                409, ConsoleJSON.error("this chat has \(ChatLimits.messages) messages, as many as it keeps: start a new chat (POST /api/v1/chat/reset)"))
        }
        switch await chat.session.phase {
        case .awaitingInput:
            await chat.perform(patience: Self.chatPatience) { await $0.provide(text) }
        case .awaitingConfirmation where ["y", "yes"].contains(text.lowercased()):
            await chat.perform(patience: Self.chatPatience) { await $0.confirm() }
        case .awaitingConfirmation where ["n", "no"].contains(text.lowercased()):
            await chat.perform(patience: Self.chatPatience) { await $0.dismiss() }
        default:
            await chat.send(text, patience: Self.chatPatience)
        }
        return json(200, .object(await ChatJSON.state(chat)))
    }

    /// Runs what the agent proposed (after its plan card was shown); answers 202 once the run has
    /// started or ended, whichever comes first.
    private func chatApprove(_ key: String) async -> ServerResponse {
        guard let chat = await chats.existing(key), await chat.session.pending != nil, await !chat.isBusy else {
            return json(409, ConsoleJSON.error("nothing waits for approval in this chat: send a request first"))
        }
        if case .awaitingInput = await chat.session.phase {
            return json(409, ConsoleJSON.error("the agent still needs an input before anything can run: answer its question"))
        }
        await chat.perform(patience: .milliseconds(500)) { await $0.confirm() }
        return json(202, .object(await ChatJSON.state(chat)))
    }

    private func chatDecline(_ key: String) async -> ServerResponse {
        guard let chat = await chats.existing(key), await !chat.isBusy else {
            return json(409, ConsoleJSON.error("nothing waits for an answer in this chat"))
        }
        switch await chat.session.phase {
        case .awaitingConfirmation, .awaitingInput:
            await chat.perform(patience: Self.chatPatience) { await $0.dismiss() }
            return json(200, .object(await ChatJSON.state(chat)))
        default:
            return json(409, ConsoleJSON.error("nothing waits for an answer in this chat"))
        }
    }

    /// Writes what the chat proposed (or ran) as `Playbooks/NAME.yaml`: only a file that validates,
    /// never over an existing one.
    private func chatSave(_ key: String, _ request: ServerRequest) async -> ServerResponse {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        guard case .string(let name)? = body["name"] else {
            return json(400, ConsoleJSON.error("the body needs \"name\": the new playbook's name (letters, digits, - and _)"))
        }
        guard Self.isPlainName(name) else {
            return json(400, ConsoleJSON.error("'\(name)' cannot be a playbook's name: use letters, digits, - and _ (it becomes Playbooks/NAME.yaml)"))
        }
        guard let chat = await chats.existing(key), let run = await chat.saveable else {
            return json(409, ConsoleJSON.error("nothing to save in this chat: the agent has not proposed a run yet"))
        }
        let workspace = chat.workspace
        let route: AgentRoute
        if let found = AgentRoute(run) {
            route = found
        } else if run.layer == .skill, let target = run.target {
            route = host.skillRoute(
                target, inputs: run.inputs, workspace: workspace, clock: Matcher.ReferenceTime(now: Date(), timeZone: host.configuration.timeZone))
        } else {
            return json(409, ConsoleJSON.error("what the agent proposed cannot be written as a playbook"))
        }
        if await chat.holdsSecret(run) {
            return json(409, ConsoleJSON.error("it holds a secret input, which is never written to a file: write the playbook with an input instead"))
        }
        let description = await chat.saveableRequest
        let text = route.playbookText(name: name, description: description, workspace: workspace)
        let writer = PlaybookWriter(folder: host.configuration.playbooksDirectory)
        let file = "\(host.displayPath(host.configuration.playbooksDirectory))/\(name).yaml"
        let checked = host.check(text, file: file, registry: workspace.registry)
        guard checked.playbook != nil else {
            return json(422, ["error": "the playbook it would write does not validate; nothing was written", "diagnostics": ConsoleJSON.diagnostics(checked.diagnostics)])
        }
        do {
            let url = try writer.create(text, named: name)
            return json(
                201,
                ["saved": .string(host.displayPath(url)), "name": .string(name), "url": .string("/playbooks/\(name)"), "source": .string(text)])
        } catch {
            return writeRefusal(error, name: name)
        }
    }

    func writeRefusal(_ error: PlaybookWriter.Failure, name: String) -> ServerResponse {
        switch error {
        case .exists(let file):
            return json(409, ConsoleJSON.error("Playbooks/\(file) exists; it is not overwritten: choose another name"))
        case .outside:
            return json(400, ConsoleJSON.error("'\(name)' does not name a file in the Playbooks folder"))
        case .missing(let file):
            return json(404, ConsoleJSON.error("Playbooks/\(file) is not there"))
        case .io(let message):
            return json(500, ConsoleJSON.error(message))
        }
    }

    /// The session's chat, begun over the workspace as it is now when it has none.
    private func beginChat(_ key: String) async -> Result<ConsoleChat, ResponseError> {
        let host = host
        let hub = hub
        let local = local
        do {
            let found = try await chats.chat(key) { () async throws(HostError) -> ConsoleChat in
                let workspace = try await host.agentWorkspace()
                return await ConsoleChat(host: host, workspace: workspace, hub: hub, local: local)
            }
            guard let found else {
                return .failure(ResponseError(json(503, ConsoleJSON.error("every chat this console keeps is working; try again when one ends"))))
            }
            return .success(found)
        } catch {
            return .failure(ResponseError(failure(error)))
        }
    }
}
