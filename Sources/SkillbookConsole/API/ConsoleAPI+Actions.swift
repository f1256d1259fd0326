import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import Synchronization

/// What a person can do to a recorded run from the console — cancel, resume, roll back — with the
/// CLI's rules, through the host's own resume and rollback code. A refusal is a 409 naming the
/// reason; nothing is ever silently skipped.
extension ConsoleAPI {
    /// Which actions the rules allow on `run` now, each with the reason when not: what the Run page's
    /// buttons show before anything is clicked.
    func actions(_ run: JournalRun, compensating: Bool, journal: any RunJournal) -> ValueObject {
        let status = run.status.rawValue.replacingOccurrences(of: "_", with: " ")
        func allowed(_ ok: Bool, _ reason: String) -> Value {
            ok ? ["allowed": true] : ["allowed": false, "reason": .string(reason)]
        }
        let here = local.isRunning(run.id)
        let cancel: Value
        switch run.status {
        case .running, .queued:
            cancel = allowed(here, "it runs in \(Self.holder(of: run) ?? "another process"), not in this console: stop it there")
        default:
            cancel = allowed(false, "it is not running (\(status))")
        }
        let resume: Value
        switch run.status {
        case .interrupted, .failed:
            resume = allowed(!compensating, "it was being rolled back when it stopped: roll it back to finish undoing it")
        case .running, .queued: resume = allowed(false, "it is still running")
        case .succeeded, .succeededWithErrors: resume = allowed(false, "it already finished (\(status)); nothing to resume")
        case .rolledBack: resume = allowed(false, "it was rolled back; start it again from its playbook")
        case .rollbackIncomplete: resume = allowed(false, "its rollback is incomplete; roll it back again to retry what is left")
        case .waiting: resume = allowed(false, "it waits for an approval: approve or decline it (Confirmations)")
        }
        var rollback: ValueObject
        switch run.status {
        case .running, .queued:
            rollback = ["allowed": false, "reason": "it is still running; cancel it first (it then rolls back what it completed)"]
        case .rolledBack: rollback = ["allowed": false, "reason": "it is already rolled back; nothing to undo"]
        default: rollback = ["allowed": true]
        }
        rollback["needs_approval"] = .bool(run.status == .succeeded || run.status == .succeededWithErrors)
        return ["cancel": cancel, "resume": resume, "rollback": .object(rollback)]
    }

    // MARK: Cancel

    /// Interrupts a run this server started (it rolls back what it completed, as Ctrl-C would);
    /// 409 for a run another process holds or one that is not running.
    func cancel(_ reference: String) async -> ServerResponse {
        do {
            let journal = try host.openJournal()
            guard let run = try await recordedRun(reference, journal) else { return json(404, ConsoleJSON.error("no run \(reference)")) }
            if local.cancel(run.id) {
                return json(202, ["run": .string(run.id), "cancelling": true, "url": .string("/runs/\(run.id)")])
            }
            switch run.status {
            case .running, .queued:
                return json(
                    409,
                    ConsoleJSON.error(
                        "run \(run.id) (\(run.playbook)) is running in \(Self.holder(of: run) ?? "another process"), not in this console, "
                            + "so it cannot be cancelled here: stop that process (Ctrl-C, or kill PID), or wait for it to finish"))
            default:
                return json(409, ConsoleJSON.error("run \(run.id) (\(run.playbook)) is not running (\(run.status.rawValue)); nothing to cancel"))
            }
        } catch {
            return failure(error)
        }
    }

    // MARK: Rollback

    /// What undoing the run would do — undone, kept (cannot be undone), uncertain — with nothing
    /// taken over or undone.
    func rollbackPreview(_ reference: String) async -> ServerResponse {
        do {
            let preview = try await host.rollbackPreview(.run(reference))
            return json(200, .object(Self.previewJSON(preview)))
        } catch {
            return failure(error)
        }
    }

    static func previewJSON(_ preview: RollbackPreview) -> ValueObject {
        func item(_ item: RollbackPreview.Item) -> Value {
            ["key": .string(item.key.description), "step": .string(item.key.step.description), "skill": .string(item.skill),
             "by_rollback_steps": .bool(item.byRollbackSteps)]
        }
        return [
            "run": .object(ConsoleJSON.row(preview.run)), "needs_approval": .bool(preview.needsApproval),
            "undo": .array(preview.undone.map(item)), "keep": .array(preview.irreversible.map(item)),
            "uncertain": .array(preview.uncertain.map { uncertainJSON($0) }),
        ]
    }

    static func uncertainJSON(_ call: JournalCall) -> Value {
        ["key": .string(call.key.description), "step": .string(call.key.step.description), "skill": .string(call.skill),
         "started": ConsoleJSON.iso(call.started)]
    }

    /// Undoes the run (trigger of the undo: this console). A finished run needs `"approve": true`
    /// in the body: the page sends it once the person saw the preview and chose "Undo".
    func rollback(_ reference: String, _ request: ServerRequest) async -> ServerResponse {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        let approval: RollbackApproval =
            body["approve"] == .bool(true)
            ? .approveAll
            : .refuse(reason: "send \"approve\": true once the preview (GET …/rollback) was shown and accepted")
        do {
            let prepared = try await host.prepareRollback(.run(reference), approval: approval, trigger: .console)
            return await launch(prepared)
        } catch {
            return failure(error)
        }
    }

    // MARK: Resume

    /// Goes on with an interrupted or failed run from where it stopped. `"uncertain"`: `"rerun"` or
    /// `"skip"` decides about calls whose result was never recorded (without it, such calls of a
    /// skill that is not idempotent answer 409 listing them); `"secrets"`: secret inputs given
    /// again; `"force"`: resume with a playbook file changed since.
    func resume(_ reference: String, _ request: ServerRequest) async -> ServerResponse {
        let body: ValueObject
        switch Self.jsonObject(request) {
        case .success(let object): body = object
        case .failure(let failure): return failure.response
        }
        var policy = UncertainCallPolicy.refuse
        switch body["uncertain"] {
        case nil, .null?: break
        case .string("rerun")?: policy = .rerun
        case .string("skip")?: policy = .skip
        default: return json(400, ConsoleJSON.error("\"uncertain\" is \"rerun\" or \"skip\""))
        }
        var secrets: [(key: String, text: String)] = []
        switch body["secrets"] {
        case nil, .null?: break
        case .object(let given)?:
            for (key, value) in given {
                guard case .string(let text) = value else { return json(400, ConsoleJSON.error("secret input '\(key)' must be given as text")) }
                secrets.append((key, text))
            }
        default: return json(400, ConsoleJSON.error("\"secrets\" must be an object of secret input names to values"))
        }
        let force = body["force"] == .bool(true)
        do {
            let prepared = try await host.prepareResume(ResumeRequest(run: reference, force: force, uncertain: policy, secretInputs: secrets, trigger: .console))
            return await launch(prepared)
        } catch {
            return failure(error)
        }
    }

    /// Starts prepared work (a new run, a resume, a rollback) in this process; its events go to the
    /// event streams, and shutdown interrupts it. Answers 202 with the run's id once the journal has
    /// the run (the engine records a new one as it starts), so that a read of it right after the
    /// answer finds it.
    func launch(_ prepared: PreparedRun, on runner: PlaybookHost? = nil) async -> ServerResponse {
        let id = prepared.runID
        let handle = (runner ?? host).start(prepared)
        let number = local.add(id, handle)
        let hub = hub
        let local = local
        Task {
            for await event in handle.events {
                var object = RunEventJSON.object(event)
                object["run"] = .string(id)
                hub.publish(run: id, object, keep: true)
            }
            _ = await handle.result.value
            hub.forget(run: id)
            local.finished(id, number)
        }
        if let journal = try? host.openJournal() {
            for _ in 0..<1000 {
                if (try? await journal.run(id)) != nil { break }
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
        }
        return json(202, ["run": .string(id), "url": .string("/runs/\(id)")])
    }

    // MARK: Dry-run

    /// Validates, resolves what it can, runs read-only (query) skills for real and no action, and
    /// answers the plan: each step's calls, batches, confirmations, unknowns and whether it can be
    /// undone. Nothing is recorded.
    func dryRun(_ name: String, _ request: ServerRequest) async -> ServerResponse {
        let inputs: ValueObject
        switch playbookInputs(name, request) {
        case .success(let given): inputs = given
        case .failure(let refusal): return refusal.response
        }
        do {
            let prepared = try await host.prepareRun(RunRequest(playbook: name, inputs: inputs, dryRun: true, trigger: .console))
            let collected = PlanCollector()
            let result = await host.execute(prepared) { event in collected.add(event) }
            var answer = RunEventJSON.finished(result)
            answer["type"] = nil
            answer["plan"] = .array(collected.plan)
            answer["warnings"] = .array(collected.warnings)
            answer["unknown_outputs"] = .array(result.unknownOutputs.map(Value.string))
            return json(200, .object(answer))
        } catch {
            return failure(error)
        }
    }

    // MARK: Helpers

    /// `process 1234` (`on HOST` when another machine's) holding a running run.
    static func holder(of run: JournalRun) -> String? {
        run.holder.map { "process \($0.pid)" + ($0.host == ProcessInfo.processInfo.hostName ? "" : " on \($0.host)") }
    }

    func recordedRun(_ reference: String, _ journal: any RunJournal) async throws -> JournalRun? {
        let id: String
        do {
            id = try await journal.resolveRunID(reference)
        } catch let error as JournalError where error.kind == .notFound {
            return nil
        }
        return try await journal.run(id)
    }

    /// The host's refusals as the console says them (409): what stopped it, and what to do.
    static func refusal(_ error: HostError) -> ServerResponse? {
        switch error {
        case .runStillRunning(_, let message): return json(409, ConsoleJSON.error(message))
        case .notResumable(let run, let reason):
            let text: String
            switch reason {
            case .finished: text = "it already finished (\(run.status.rawValue)); nothing to resume"
            case .rolledBack: text = "it was rolled back; nothing to resume (start it again from its playbook)"
            case .rollbackIncomplete: text = "its rollback is incomplete; roll it back again to retry what is left"
            case .wasRollingBack: text = "it was being rolled back when it stopped; roll it back to finish undoing it"
            case .waitsForApproval: text = "it waits for an approval; approve or decline it first"
            }
            return json(409, ConsoleJSON.error("run \(run.id) (\(run.playbook)) cannot be resumed: \(text)"))
        case .notUndoable(let run, _):
            return json(409, ConsoleJSON.error("run \(run.id) (\(run.playbook)) is already rolled back; nothing to undo"))
        case .rollbackNotApproved(let run, let reason):
            return json(
                409,
                ConsoleJSON.error("run \(run.id) (\(run.playbook)) \(run.status.rawValue); undoing it needs approval (\(reason)); nothing was undone"))
        case .playbookChanged(let file, let runID, _, _):
            return json(
                409,
                [
                    "error": .string(
                        "\(file) changed since run \(runID.prefix(8)) started; resuming would mix two versions of the playbook. "
                            + "Put the file back, resume with the file as it is now (\"force\": true), or roll the run back"),
                    "force": true,
                ])
        case .secretInputsMissing(let runID, let names):
            return json(
                409,
                [
                    "error": .string(
                        "run \(runID)'s secret input\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) "
                            + "\(names.count == 1 ? "is" : "are") not kept in the journal; give \(names.count == 1 ? "it" : "them") again (\"secrets\")"),
                    "secrets": .array(names.map(Value.string)),
                ])
        case .secretUnavailable(let name, let reason):
            return json(409, ConsoleJSON.error("the secret '\(name)' could not be read: \(reason); nothing was run"))
        case .notASecretInput(let name, _):
            return json(400, ConsoleJSON.error("input '\(name)' is resumed as recorded; only secret inputs are given again"))
        case .uncertainCalls(let calls):
            let one = calls.count == 1
            return json(
                409,
                [
                    "error": .string(
                        "\(one ? "a call" : "\(calls.count) calls") of this run started but never recorded a result (the process stopped during "
                            + "\(one ? "it" : "them")), and running \(one ? "it" : "them") again could do it twice: choose to run "
                            + "\(one ? "it" : "them") again (\"uncertain\": \"rerun\") or count \(one ? "it" : "them") as done (\"uncertain\": \"skip\")"),
                    "uncertain": .array(calls.map { uncertainJSON($0) }),
                ])
        case .resumeAborted: return json(409, ConsoleJSON.error("resume aborted; nothing was run"))
        case .runChangedWhilePreparing(let runID):
            return json(409, ConsoleJSON.error("run \(runID) changed while this was being prepared; look again and retry"))
        default: return nil
        }
    }
}

/// A dry run's planned steps and warnings, as its events report them.
private final class PlanCollector: Sendable {
    private let state = Mutex<(plan: [Value], warnings: [Value])>(([], []))

    func add(_ event: RunEvent) {
        switch event {
        case .stepPlanned: state.withLock { $0.plan.append(.object(RunEventJSON.object(event))) }
        case .warning(let warning): state.withLock { $0.warnings.append(.string(warning.message)) }
        default: break
        }
    }

    var plan: [Value] { state.withLock { $0.plan } }
    var warnings: [Value] { state.withLock { $0.warnings } }
}
