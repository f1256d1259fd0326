public import Foundation
public import SkillbookCore
public import SkillbookRuntime

/// What to run: a playbook and its inputs.
public struct RunRequest: Sendable {
    /// A playbook name (looked up in the playbooks folder) or a path to a file.
    public var playbook: String
    /// Input values already typed (from an MCP call or an app); overridden by `inputTexts`.
    public var inputs: ValueObject
    /// A YAML or JSON mapping of input values to read first (relative to the current directory).
    public var inputsFile: String?
    /// Inputs given as text (`-i key=value`), coerced to each input's type.
    public var inputTexts: [(key: String, text: String)]
    public var dryRun: Bool
    /// Who started the run, for the journal: `cli`, `schedule`, `mcp`, `agent`.
    public var trigger: RunTrigger
    /// The fire's scheduled instant, for a run with trigger `schedule` (journaled as `scheduled_at`).
    public var scheduledAt: Date?
    /// The result's step reports carry each step's output (see `Engine.RunOptions.keepsStepOutputs`);
    /// `skillbook run`, which shows only the run's outputs, says `false`.
    public var keepsStepOutputs = true

    public init(
        playbook: String, inputs: ValueObject = [:], inputsFile: String? = nil, inputTexts: [(key: String, text: String)] = [],
        dryRun: Bool = false, trigger: RunTrigger = .cli, scheduledAt: Date? = nil
    ) {
        self.scheduledAt = scheduledAt
        self.playbook = playbook
        self.inputs = inputs
        self.inputsFile = inputsFile
        self.inputTexts = inputTexts
        self.dryRun = dryRun
        self.trigger = trigger
    }
}

extension PlaybookHost {
    /// Checks a playbook and its inputs and makes the run ready: builds the registry, finds and
    /// checks the playbook, reads and coerces the inputs, opens the journal (not for a dry run)
    /// and records the playbook's file for the run. Nothing runs yet; warnings go to `onNotice`.
    public func prepareRun(_ request: RunRequest, onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> PreparedRun {
        try await prepareRun(request, readingSecrets: true, onNotice: onNotice)
    }

    /// `readingSecrets: false` (a run for the queue): the worker reads the providers, so the
    /// inputs they fill are `***` here, as the journal records them anyway.
    func prepareRun(_ request: RunRequest, readingSecrets: Bool, onNotice: HostNoticeHandler) async throws(HostError) -> PreparedRun {
        let registry = try await registry(onNotice)
        let url = try locatePlaybook(request.playbook)
        let file = try loadPlaybook(at: url, registry: registry)
        guard let playbook = file.playbook else { throw .invalidPlaybook(diagnostics: file.result.diagnostics, sources: file.sources) }
        if !file.result.diagnostics.isEmpty { onNotice(.diagnostics(file.result.diagnostics, sources: file.sources)) }

        var values = try InputsFile.read(request.inputsFile, host: self)
        for (key, value) in request.inputs { values[key] = value }
        let given = Set(values.map(\.key) + request.inputTexts.map(\.key))
        let provided = readingSecrets
            ? try await provideSecrets(for: playbook, given: given) : ProvidedSecrets.placeholders(for: playbook, given: given)
        for (key, value) in provided.inputs { values[key] = value }
        let inputs: ValueObject
        do throws(DiagnosticError) {
            inputs = try InputResolver(now: configuration.clock.now(), timeZone: configuration.timeZone, variables: configuration.environment)
                .resolve(playbook, values: values, commandLine: request.inputTexts)
        } catch {
            throw .invalidInputs(diagnostics: error.diagnostics)
        }
        // The journal records every real run; a state file that cannot be opened stops it here.
        let journal = request.dryRun ? nil : try openJournal()
        let runID = configuration.ids.next()
        try await HostError.journaling { try await journal?.setFile(url.path, forRun: runID) }
        try await recordWorkspace(of: runID, in: journal)
        return PreparedRun(
            playbook: playbook, inputs: inputs, registry: registry, journal: journal, runID: runID,
            work: .run(
                Engine.RunOptions(
                    dryRun: request.dryRun, trigger: request.trigger, source: file.text, scheduledAt: request.scheduledAt,
                    secrets: provided.values, keepsStepOutputs: request.keepsStepOutputs)),
            heldStatus: nil, workspace: WorkspaceFolder.of(playbookFile: url).path)
    }

    /// Prepares and executes a run (see `prepareRun` and `execute`).
    public func run(
        _ request: RunRequest, confirmer: (any Confirmer)? = nil, onNotice: HostNoticeHandler = { _ in },
        onEvent: @escaping RunEventHandler = { _ in }
    ) async throws(HostError) -> RunResult {
        await execute(try await prepareRun(request, onNotice: onNotice), confirmer: confirmer, onEvent: onEvent)
    }

    /// Runs prepared work to its end, reporting each event to `onEvent` as it happens (on the
    /// engine's task: a handler that prints keeps the order of events and prompts).
    ///
    /// Never throws: failures end in the result. Cancelling the calling task interrupts the run and
    /// rolls back what it completed. `confirmer` replaces the configuration's confirmation policy
    /// for this run. After a new run the journal keeps its newest runs only, and the trash of
    /// file skills older than every run kept is emptied.
    public func execute(
        _ prepared: PreparedRun, confirmer: (any Confirmer)? = nil, onEvent: @escaping RunEventHandler = { _ in }
    ) async -> RunResult {
        var confirmer = confirmer ?? configuration.confirmation.confirmer
        if case .run(let options) = prepared.work, options.resume != nil, let journal = prepared.journal {
            // A run that waited goes on: the calls someone approved or declined are not asked again.
            confirmer = await self.confirmer(resuming: prepared.runID, journal: journal, base: confirmer)
        }
        let engine = Engine(
            registry: prepared.registry, environment: fixedRunID(prepared.runID),
            confirmer: confirmer,
            resources: prepared.journal.flatMap(persistence.resourceLocks) ?? ResourceLocks.shared, recorder: recorder(of: prepared))
        let workspace = prepared.workspace.isEmpty ? configuration.currentDirectory.path : prepared.workspace
        switch prepared.work {
        case .run(var options):
            if options.workspace.isEmpty { options.workspace = workspace }
            let metrics = options.dryRun ? nil : configuration.metrics
            metrics?.runStarted(playbook: prepared.playbook.name, trigger: options.trigger.rawValue)
            let result = await engine.run(prepared.playbook, inputs: prepared.inputs, options: options, onEvent: onEvent)
            metrics?.runFinished(result, trigger: options.trigger.rawValue)
            if prepared.isNewRun, let journal = prepared.journal { await keepRetention(journal, playbook: prepared.playbook) }
            await notify(
                about: result, status: notifiedStatus(of: result), playbook: prepared.playbook, registry: prepared.registry,
                trigger: options.trigger, scheduledAt: options.scheduledAt, workspace: workspace)
            return result
        case .rollback(let completed, let unrecorded):
            configuration.metrics?.runStarted(playbook: prepared.playbook.name, trigger: "rollback")
            let result = await engine.rollBack(
                prepared.playbook, runID: prepared.runID, completed: completed, unrecorded: unrecorded, workspace: workspace,
                onEvent: onEvent)
            configuration.metrics?.runFinished(result, trigger: "rollback")
            await notify(
                about: result, status: notifiedStatus(of: result), playbook: prepared.playbook, registry: prepared.registry,
                trigger: .cli, scheduledAt: nil, workspace: workspace)
            return result
        }
    }

    /// The journal the engine records `prepared` in: timed for `--metrics` when the configuration
    /// counts (a dry run records nothing).
    private func recorder(of prepared: PreparedRun) -> (any RunRecorder)? {
        guard let journal = prepared.journal else { return nil }
        guard let metrics = configuration.metrics else { return journal }
        return TimedRecorder(base: journal, metrics: metrics)
    }

    /// The status a notification reports for `result`, as the journal spells it.
    private func notifiedStatus(of result: RunResult) -> String {
        result.status.rawValue
    }

    /// Starts prepared work at once; its events arrive on the handle's stream (for a live display
    /// or a session), `cancel()` interrupts it. See `execute`.
    public func start(_ prepared: PreparedRun, confirmer: (any Confirmer)? = nil) -> RunHandle {
        let host = self
        return RunHandle.start { onEvent in await host.execute(prepared, confirmer: confirmer, onEvent: onEvent) }
    }

    /// Gives a prepared resume or rollback that will not be executed back to the journal, in the
    /// status it had.
    public func abandon(_ prepared: PreparedRun) async {
        guard let status = prepared.heldStatus else { return }
        try? await prepared.journal?.release(prepared.runID, status: status)
    }

    /// The engine environment with the prepared run's id.
    private func fixedRunID(_ runID: String) -> EngineEnvironment {
        var environment = engineEnvironment
        environment.ids = IDGenerator { runID }
        return environment
    }

    /// One small pass of pruning by the workspace's retention and the playbook's (at most
    /// `JournalRetention.batch` runs: a few milliseconds); when that pruned any, empties the trash they left.
    private func keepRetention(_ journal: any RunJournal, playbook: Playbook) async {
        var rules = RetentionRules(workspace: configuration.retention)
        if let cap = playbook.retention?.maxRuns { rules.playbookCap = (playbook.name, cap) }
        let now = configuration.clock.now()
        if let pruned = try? await journal.pruneBatch(rules, now: now, limit: JournalRetention.batch), pruned > 0 {
            _ = try? await TrashCleanup.sweep(journal: journal, stateDirectory: configuration.stateDirectory, now: configuration.clock.now())
        }
    }
}
