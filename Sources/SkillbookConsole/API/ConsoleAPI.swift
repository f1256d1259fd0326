import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import Synchronization

/// The runs this process started from the console, so that their events come from the engine
/// (and not again from the journal poller) and shutdown can interrupt them.
final class LocalRuns: Sendable {
    private struct State {
        /// The work going on in this process for each run (a new run, a resume or a rollback), with
        /// the number `add` gave it.
        var handles: [String: (number: Int, handle: RunHandle)] = [:]
        var count = 0
        /// Every run started here (the newest 10,000), running or not: the poller leaves them alone.
        var started: [String] = []
        var startedSet: Set<String> = []
    }

    private let state = Mutex(State())

    /// Records work started here for run `id`; the number to give `finished`.
    func add(_ id: String, _ handle: RunHandle) -> Int {
        state.withLock { state in
            state.count += 1
            state.handles[id] = (state.count, handle)
            if !state.startedSet.contains(id) {
                state.started.append(id)
                state.startedSet.insert(id)
            }
            if state.started.count > 10_000 { state.startedSet.remove(state.started.removeFirst()) }
            return state.count
        }
    }

    /// The work `number` of run `id` ended (a later resume or rollback of it stays).
    func finished(_ id: String, _ number: Int) {
        state.withLock { state in
            if state.handles[id]?.number == number { state.handles[id] = nil }
        }
    }

    /// A run started here through other means than `add` (a chat's run): the poller leaves it alone.
    func noteStarted(_ id: String) {
        state.withLock { state in
            guard !state.startedSet.contains(id) else { return }
            state.started.append(id)
            state.startedSet.insert(id)
            if state.started.count > 10_000 { state.startedSet.remove(state.started.removeFirst()) }
        }
    }

    func contains(_ id: String) -> Bool { state.withLock { $0.startedSet.contains(id) } }
    /// Work for run `id` is going on in this process.
    func isRunning(_ id: String) -> Bool { state.withLock { $0.handles[id] != nil } }

    /// Interrupts the work going on for run `id` here (it rolls back what it completed); `false`
    /// when there is none.
    func cancel(_ id: String) -> Bool {
        guard let handle = state.withLock({ $0.handles[id]?.handle }) else { return false }
        handle.cancel()
        return true
    }

    /// Interrupts every run still going (each rolls back what it completed, as Ctrl-C would) and
    /// waits for them to end.
    func interruptAll() async {
        let running = state.withLock { $0.handles.values.map(\.handle) }
        for handle in running { handle.cancel() }
        for handle in running { _ = await handle.result.value }
    }
}

/// `/api/v1/…`: what the pages read and do, through the host. Every answer is JSON.
struct ConsoleAPI: Sendable {
    let host: PlaybookHost
    let hub: EventHub
    let local: LocalRuns
    /// The agent chats of the browser sessions.
    let chats: ConsoleChats
    /// This process fires the workspace's schedules too (`serve --schedules`).
    var firesSchedules = false

    func handle(_ request: ServerRequest, route: [String], csrf: String) async -> ServerResponse {
        let get = request.method == "GET" || request.method == "HEAD"
        let post = request.method == "POST"
        if route == ["session"], get { return json(200, ["csrf": .string(csrf)]) }
        if route == ["runs"], get { return await runs(request) }
        if route == ["runs", "strips"], get { return await strips() }
        if let id = Self.match(route, "runs", "*"), get { return await run(id) }
        if route == ["playbooks"], get { return playbooks() }
        if let name = Self.match(route, "playbooks", "*"), get { return playbook(name) }
        if let name = Self.match(route, "playbooks", "*", "run"), post { return await start(name, request) }
        if let name = Self.match(route, "playbooks", "*", "dry-run"), post { return await dryRun(name, request) }
        if let name = Self.match(route, "playbooks", "*", "save"), post { return save(name, request) }
        if let id = Self.match(route, "runs", "*", "rollback"), get { return await rollbackPreview(id) }
        if let id = Self.match(route, "runs", "*", "rollback"), post { return await rollback(id, request) }
        if let id = Self.match(route, "runs", "*", "resume"), post { return await resume(id, request) }
        if let id = Self.match(route, "runs", "*", "cancel"), post { return await cancel(id) }
        if route == ["schedules"], get { return await schedules() }
        if route == ["approvals"], get { return await approvals() }
        if let id = Self.match(route, "runs", "*", "approve"), post { return await approve(id, request) }
        if let id = Self.match(route, "runs", "*", "decline"), post { return await decline(id, request) }
        if route == ["validate"], post { return validate(request) }
        if route == ["skills"], get { return skills() }
        if route == ["events"], get { return events(request) }
        if route.first == "chat", let answer = await chatRoute(request, route, key: csrf) { return answer }
        if route.first == "agent", let answer = await agentRoute(request, route) { return answer }
        let known = [
            ["session"], ["runs"], ["runs", "*"], ["runs", "*", "rollback"], ["runs", "*", "resume"], ["runs", "*", "cancel"], ["playbooks"],
            ["playbooks", "*"], ["playbooks", "*", "run"], ["playbooks", "*", "dry-run"], ["playbooks", "*", "save"], ["schedules"], ["validate"], ["skills"], ["events"],
            ["approvals"], ["runs", "*", "approve"], ["runs", "*", "decline"],
        ] + Self.chatRoutes + Self.agentRoutes
        if known.contains(where: { Self.match(route, $0) != nil }) {
            return json(405, ConsoleJSON.error("\(request.method) is not allowed on \(request.path)"))
        }
        return json(404, ConsoleJSON.error("no such endpoint: \(request.path)"))
    }

    /// The part of `route` that stands where `pattern` has `*` (the empty string when it has none);
    /// `nil` when they differ.
    static func match(_ route: [String], _ pattern: String...) -> String? { match(route, pattern) }

    static func match(_ route: [String], _ pattern: [String]) -> String? {
        guard route.count == pattern.count else { return nil }
        var captured = ""
        for (part, expected) in zip(route, pattern) {
            if expected == "*" { captured = part } else if part != expected { return nil }
        }
        return captured
    }

    // MARK: Runs

    static let defaultPage = 50
    static let maxPage = 500

    private func runs(_ request: ServerRequest) async -> ServerResponse {
        var status: JournalStatus?
        if let text = request.query["status"], !text.isEmpty {
            guard let known = JournalStatus(rawValue: text) else {
                let names = JournalStatus.allCases.map(\.rawValue).joined(separator: ", ")
                return json(400, ConsoleJSON.error("unknown status '\(text)'; one of \(names)"))
            }
            status = known
        }
        var filter = RunFilter(status: status)
        filter.playbook = request.query["playbook"].flatMap { $0.isEmpty ? nil : $0 }
        filter.trigger = request.query["trigger"].flatMap { $0.isEmpty ? nil : RunTrigger(rawValue: $0) }
        for (key, bound) in [("from", \RunFilter.startedFrom), ("before", \RunFilter.startedBefore)] {
            guard let text = request.query[key], !text.isEmpty else { continue }
            guard let date = ISO8601DateFormatter().date(from: text) else {
                return json(400, ConsoleJSON.error("'\(key)' must be an ISO 8601 time such as 2026-05-01T09:00:00Z, got '\(text)'"))
            }
            filter[keyPath: bound] = date
        }
        var limit = Self.defaultPage
        if let text = request.query["limit"] {
            guard let value = Int(text), (1...Self.maxPage).contains(value) else {
                return json(400, ConsoleJSON.error("limit must be a whole number from 1 to \(Self.maxPage), got '\(text)'"))
            }
            limit = value
        }
        // The cursor is where the last page ended (see `RunCursor`): a page is an indexed range read
        // however deep, and runs added meanwhile never shift it.
        var cursor: RunCursor?
        if let text = request.query["cursor"], !text.isEmpty {
            guard let value = RunCursor(text: text) else {
                return json(400, ConsoleJSON.error("the cursor '\(text)' is not one this server gave"))
            }
            cursor = value
        }
        do {
            let journal = try host.openJournal()
            let page = try await journal.runs(filter, after: cursor, limit: limit)
            let next: Value = page.next.map { .string($0.text) } ?? .null
            return json(200, ["runs": .array(page.runs.map { .object(ConsoleJSON.row($0)) }), "next_cursor": next])
        } catch {
            return failure(error)
        }
    }

    /// The last 20 outcomes of each playbook of the workspace, newest first.
    private func strips() async -> ServerResponse {
        do {
            let journal = try host.openJournal()
            var strips = ValueObject()
            for file in host.playbookFiles() {
                let name = file.deletingPathExtension().lastPathComponent
                let runs = try await journal.runs(playbook: name, status: nil, limit: 20)
                strips[name] = .array(runs.map { ["id": .string($0.id), "status": .string($0.status.rawValue)] })
            }
            return json(200, ["strips": .object(strips)])
        } catch {
            return failure(error)
        }
    }

    private func run(_ id: String) async -> ServerResponse {
        do {
            let journal = try host.openJournal()
            let full: String
            do {
                full = try await journal.resolveRunID(id)
            } catch let error as JournalError {
                return json(error.kind == .ambiguous ? 400 : 404, ConsoleJSON.error(error.message))
            }
            // Without its calls: they are read a page at a time and digested (`ConsoleCallDigest`).
            guard let timeline = try await journal.timelineWithoutCalls(full, withReport: false) else { return json(404, ConsoleJSON.error("no run \(id)")) }
            var digest = ConsoleCallDigest()
            try await journal.forEachCallPage(of: full) { calls in
                for call in calls { digest.add(call) }
            }
            var object = ConsoleJSON.run(timeline)
            digest.fields(into: &object)
            object["actions"] = .object(actions(timeline.run, compensating: !timeline.compensations.isEmpty, journal: journal))
            return json(200, .object(object))
        } catch {
            return failure(error)
        }
    }

    // MARK: Playbooks

    private func playbooks() -> ServerResponse {
        do {
            let registry = try host.loadRegistry().registry
            let list: [Value] = try host.playbookFiles().map { url throws(HostError) -> Value in
                let file = try host.loadPlaybook(at: url, registry: registry)
                let errors = file.result.diagnostics.filter { $0.severity == .error }.count
                return [
                    "name": .string(url.deletingPathExtension().lastPathComponent), "file": .string(file.displayName),
                    "valid": .bool(file.playbook != nil), "description": .string(file.playbook?.description ?? ""),
                    "errors": .int(errors), "warnings": .int(file.result.diagnostics.count - errors),
                    "schedule": .bool(!(file.playbook?.schedule.isEmpty ?? true)),
                ]
            }
            return json(200, ["playbooks": .array(list)])
        } catch {
            return failure(error)
        }
    }

    private func playbook(_ name: String) -> ServerResponse {
        guard Self.isPlainName(name) else { return json(404, ConsoleJSON.error("no playbook named '\(name)'")) }
        do {
            let registry = try host.loadRegistry().registry
            let file = try host.loadPlaybook(at: host.locatePlaybook(name), registry: registry)
            var object: ValueObject = [
                "name": .string(name), "file": .string(file.displayName), "source": .string(file.text), "valid": .bool(file.playbook != nil),
                "diagnostics": ConsoleJSON.diagnostics(file.result.diagnostics),
            ]
            if let playbook = file.playbook {
                object["description"] = .string(playbook.description)
                object["inputs"] = .object(ConsoleJSON.inputsSchema(playbook))
                object["steps"] = .array(
                    playbook.steps.map { step in
                        ["id": .string(step.id), "skill": .string(step.skill), "playbook": step.playbook.map(Value.string) ?? .null]
                    })
                object["graph"] = StepGraph.json(playbook)
            }
            return json(200, .object(object))
        } catch {
            return failure(error)
        }
    }

    private func validate(_ request: ServerRequest) -> ServerResponse {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        guard case .string(let source)? = body["source"] else {
            return json(400, ConsoleJSON.error("the body needs \"source\": the playbook's YAML text"))
        }
        var file = "playbook.yaml"
        if case .string(let name)? = body["name"], Self.isPlainName(name) { file = "Playbooks/\(name).yaml" }
        do {
            let registry = try host.loadRegistry().registry
            let result = host.check(source, file: file, registry: registry)
            return json(200, ["valid": .bool(result.playbook != nil), "diagnostics": ConsoleJSON.diagnostics(result.diagnostics)])
        } catch {
            return failure(error)
        }
    }

    /// Replaces `Playbooks/NAME.yaml` with the body's `source`, only when it validates (422 with its
    /// diagnostics otherwise, the file untouched); the write is atomic. Only an existing playbook of
    /// the folder is written: a name with a path, or a link leading out of the folder, is refused.
    private func save(_ name: String, _ request: ServerRequest) -> ServerResponse {
        guard Self.isPlainName(name) else { return json(404, ConsoleJSON.error("no playbook named '\(name)'")) }
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        guard case .string(let source)? = body["source"] else {
            return json(400, ConsoleJSON.error("the body needs \"source\": the playbook's YAML text"))
        }
        let writer = PlaybookWriter(folder: host.configuration.playbooksDirectory)
        do {
            let url = try writer.file(named: name)
            guard FileManager.default.fileExists(atPath: url.path) else { return json(404, ConsoleJSON.error("no playbook named '\(name)'")) }
            let registry = try host.loadRegistry().registry
            let result = host.check(source, file: host.displayPath(url), registry: registry)
            guard result.playbook != nil else {
                return json(
                    422,
                    ["error": "the playbook has errors; nothing was saved", "valid": false, "diagnostics": ConsoleJSON.diagnostics(result.diagnostics)])
            }
            let written = try writer.replace(source, named: name)
            return json(
                200, ["saved": .string(host.displayPath(written)), "valid": true, "diagnostics": ConsoleJSON.diagnostics(result.diagnostics)])
        } catch let error as PlaybookWriter.Failure {
            return writeRefusal(error, name: name)
        } catch {
            return failure(error)
        }
    }

    /// Starts a run of the playbook with the body's `inputs` (trigger `console`); answers 202 with
    /// its id at once. Its events go to the event streams.
    private func start(_ name: String, _ request: ServerRequest) async -> ServerResponse {
        let inputs: ValueObject
        switch playbookInputs(name, request) {
        case .success(let given): inputs = given
        case .failure(let refusal): return refusal.response
        }
        do {
            let prepared = try await host.prepareRun(RunRequest(playbook: name, inputs: inputs, trigger: .console))
            return await launch(prepared)
        } catch {
            return failure(error)
        }
    }

    /// The body's `inputs` for a playbook named in the path (`run`, `dry-run`): 404 for a name that
    /// cannot be a playbook's, 400 for a body that is not a JSON object or inputs that are not one.
    func playbookInputs(_ name: String, _ request: ServerRequest) -> Result<ValueObject, ResponseError> {
        guard Self.isPlainName(name) else { return .failure(ResponseError(json(404, ConsoleJSON.error("no playbook named '\(name)'")))) }
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return .failure(ResponseError(failure.response))
        }
        switch body["inputs"] {
        case .object(let given)?: return .success(given)
        case nil, .null?: return .success([:])
        default: return .failure(ResponseError(json(400, ConsoleJSON.error("\"inputs\" must be an object of input names to values"))))
        }
    }

    // MARK: Skills, events

    private func skills() -> ServerResponse {
        do {
            let registry = try host.loadRegistry().registry
            return json(200, ["skills": .array(registry.descriptors.map { .object(ConsoleJSON.skill($0)) })])
        } catch {
            return failure(error)
        }
    }

    private func events(_ request: ServerRequest) -> ServerResponse {
        let run = request.query["run"].flatMap { $0.isEmpty ? nil : $0 }
        let stream = hub.subscribe(run: run)
        return ServerResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
            body: .stream(stream))
    }

    // MARK: Helpers

    /// A playbook name as the URL may give it: no path, no dot first.
    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, CharacterSet.alphanumerics.contains(first), name.count <= 200 else { return false }
        return name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
    }

    static func jsonObject(_ request: ServerRequest) -> Result<ValueObject, ResponseError> {
        let type = request[header: "content-type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else {
            return .failure(ResponseError(json(415, ConsoleJSON.error("send the body as JSON (Content-Type: application/json)"))))
        }
        guard let text = String(data: request.body, encoding: .utf8) else {
            return .failure(ResponseError(json(400, ConsoleJSON.error("the body is not UTF-8 text"))))
        }
        do {
            guard case .object(let object) = try JSONText.decode(text) else {
                return .failure(ResponseError(json(400, ConsoleJSON.error("the body must be a JSON object"))))
            }
            return .success(object)
        } catch {
            return .failure(ResponseError(json(400, ConsoleJSON.error("the body is not valid JSON: \(error.description)"))))
        }
    }

    func failure(_ error: any Error) -> ServerResponse {
        if let error = error as? JournalError {
            return json(error.kind == .notFound ? 404 : 409, ConsoleJSON.error(error.message))
        }
        guard let hostError = error as? HostError else { return json(500, ConsoleJSON.error(String(describing: error))) }
        if let refusal = Self.refusal(hostError) { return refusal }
        switch hostError {
        case .invalidInputs(let diagnostics):
            return json(400, ["error": "the inputs are not valid", "diagnostics": ConsoleJSON.diagnostics(diagnostics)])
        case .invalidPlaybook(let diagnostics, _):
            return json(400, ["error": "the playbook has errors", "diagnostics": ConsoleJSON.diagnostics(diagnostics)])
        case .playbookNotFound(let name, _, _, _), .noPlaybooksFolder(let name, _):
            return json(404, ConsoleJSON.error("no playbook named '\(name)'"))
        case .journal(let error):
            return json(error.kind == JournalError.Kind.notFound ? 404 : 409, ConsoleJSON.error(error.message))
        default:
            return json(500, ConsoleJSON.error("\(hostError)"))
        }
    }
}

/// A response to answer with, carried through a `Result`.
struct ResponseError: Error {
    var response: ServerResponse
    init(_ response: ServerResponse) { self.response = response }
}

func json(_ status: Int, _ value: Value) -> ServerResponse {
    ServerResponse(
        status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
        body: .bytes(Data(JSONText.bytes(value, pretty: true))))
}
