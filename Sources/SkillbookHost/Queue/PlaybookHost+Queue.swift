import Foundation
import SkillbookCore
import SkillbookRuntime

extension PlaybookHost {
    /// Checks a playbook and its inputs as `prepareRun` does, then records the run as queued for
    /// a worker (`skillbook worker`) instead of running it; returns its id. A secret input whose
    /// value comes from a provider (`from:`) is recorded masked and read by the worker from its own
    /// providers; one with no provider is refused: the journal never keeps it, so no worker could
    /// run with it.
    ///
    /// Needs a PostgreSQL state (`--state postgresql://…`): the queue is shared by machines.
    public func enqueue(_ request: RunRequest, onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> String {
        let prepared = try await prepareRun(request, readingSecrets: false, onNotice: onNotice)
        guard let openQueue = persistence.openRunQueue, case .run(let options) = prepared.work else {
            throw .failed(message: Self.needsPostgres("--queue"))
        }
        let queue = try HostError.journaling { try openQueue() }
        let secret = prepared.playbook.inputs.filter { $0.schema.containsSecret && $0.schema.secretFrom == nil }.map(\.name)
        if !secret.isEmpty {
            throw .failed(
                message: "playbook '\(prepared.playbook.name)' has secret inputs (\(secret.joined(separator: ", "))), which the journal "
                    + "never keeps, so a queued run could not get them; give them a provider ('from:' a secret of 'secrets:' in "
                    + "skillbook.yaml, which the worker reads) or run it without --queue")
        }
        var redactor = Redactor()
        for input in prepared.playbook.inputs {
            if let value = prepared.inputs[input.name] { redactor.addSecrets(in: value, schema: input.schema) }
        }
        let file = try locatePlaybook(request.playbook).path
        let record = RunRecord(
            runID: prepared.runID, playbook: prepared.playbook.name, source: options.source, sourceHash: SourceHash.of(options.source),
            inputs: redactor.redact(prepared.inputs), trigger: request.trigger, started: configuration.clock.now(), dryRun: false,
            scheduledAt: request.scheduledAt,
            keepUntil: prepared.playbook.retention?.days.map { configuration.clock.now().addingTimeInterval(Double($0) * 86_400) })
        try await HostError.journaling { try await queue.enqueue(record, file: file, workspace: configuration.workspaceRoot?.path) }
        return prepared.runID
    }

    static func needsPostgres(_ what: String) -> String {
        "\(what) needs a state shared by machines: pass --state postgresql://USER@HOST:PORT/DATABASE (or set SKILLBOOK_STATE)"
    }
}
