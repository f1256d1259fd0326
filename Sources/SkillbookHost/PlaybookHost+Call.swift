import Foundation
public import SkillbookCore
import SkillbookRuntime

/// One skill to call as a one-step run (`skillbook call SKILL`).
public struct CallRequest: Sendable {
    /// The skill's id.
    public var skill: String
    /// Parameter values already typed; overridden by `inputTexts`.
    public var parameters: ValueObject
    /// A YAML or JSON mapping of parameter values to read first (relative to the current directory).
    public var inputsFile: String?
    /// Parameters given as text (`-i key=value`), coerced to each parameter's type.
    public var inputTexts: [(key: String, text: String)]
    public var dryRun: Bool
    /// Who started the run, for the journal.
    public var trigger: RunTrigger

    public init(
        skill: String, parameters: ValueObject = [:], inputsFile: String? = nil, inputTexts: [(key: String, text: String)] = [],
        dryRun: Bool = false, trigger: RunTrigger = .call
    ) {
        self.skill = skill
        self.parameters = parameters
        self.inputsFile = inputsFile
        self.inputTexts = inputTexts
        self.dryRun = dryRun
        self.trigger = trigger
    }
}

extension PlaybookHost {
    /// Makes a call of one skill ready as a one-step run: checked (every parameter against the
    /// skill's schema, all problems at once), confirmed like a playbook's step when the skill asks
    /// for it, journaled (its playbook text too) and so resumable and undoable like any run. Its
    /// result's `outputs["output"]` is the skill's output.
    public func prepareCall(_ request: CallRequest, onNotice: HostNoticeHandler = { _ in }) async throws(HostError) -> PreparedRun {
        let registry = try await registry(onNotice)
        guard let skill = registry[request.skill] else {
            throw .skillNotFound(id: request.skill, suggestion: Suggestion.closest(to: request.skill, in: registry.ids))
        }
        let descriptor = skill.descriptor
        var values = try InputsFile.read(request.inputsFile, host: self)
        for (key, value) in request.parameters { values[key] = value }
        let known = descriptor.parameters.fields.properties.map(\.name)
        var problems: [Diagnostic] = []
        var given: [String] = []
        for key in values.keys + request.inputTexts.map(\.key) where !given.contains(key) {
            given.append(key)
            if !known.contains(key) {
                let suggestion = Suggestion.closest(to: key, in: known).map { "; did you mean '\($0)'?" }
                let accepted = known.isEmpty ? " (it takes none)" : " (it takes: \(known.joined(separator: ", ")))"
                problems.append(.error("skill '\(descriptor.id)' has no parameter '\(key)'\(suggestion ?? accepted)", path: "-i \(key)"))
            } else if !CallPlaybook.isPlainName(key) {
                problems.append(.error("parameter '\(key)' of '\(descriptor.id)' cannot be given to call (use a playbook)", path: "-i \(key)"))
            }
        }
        if !problems.isEmpty { throw .invalidInputs(diagnostics: problems) }

        let text = CallPlaybook.text(descriptor, given: given)
        let file = "skillbook call \(descriptor.id)"
        let playbook = try checkedPlaybook(text, file: file, registry: registry, onNotice: onNotice)
        let inputs: ValueObject
        do throws(DiagnosticError) {
            inputs = try InputResolver(now: configuration.clock.now(), timeZone: configuration.timeZone, variables: configuration.environment)
                .resolve(playbook, values: values, commandLine: request.inputTexts)
        } catch {
            throw .invalidInputs(diagnostics: error.diagnostics.map(Self.asParameter))
        }
        let journal = request.dryRun ? nil : try openJournal()
        let runID = configuration.ids.next()
        try await recordWorkspace(of: runID, in: journal)
        return PreparedRun(
            playbook: playbook, inputs: inputs, registry: registry, journal: journal, runID: runID,
            work: .run(Engine.RunOptions(dryRun: request.dryRun, trigger: request.trigger, source: text)), heldStatus: nil)
    }

    /// An input's diagnostic as the call's parameter's: `input 'x'` reads `parameter 'x'`.
    private static func asParameter(_ diagnostic: Diagnostic) -> Diagnostic {
        var diagnostic = diagnostic
        diagnostic.message = diagnostic.message.replacingOccurrences(of: "required input", with: "required parameter")
            .replacingOccurrences(of: "input '", with: "parameter '")
        if let path = diagnostic.path, path.hasPrefix("inputs.") { diagnostic.path = "-i " + path.dropFirst("inputs.".count) }
        return diagnostic
    }
}
