/// One attempt of one call as a journal kept it.
public struct JournaledCall: Sendable {
    public var key: CallKey
    public var skill: String
    public var attempt: Int
    /// Secrets redacted.
    public var parameters: ValueObject
    /// Set when the skill returned.
    public var output: Value?
    /// Set when the attempt failed.
    public var error: String?
    /// The order in which attempts finished (or, when unfinished, started); compensation goes backwards through it.
    public var order: Int
    /// A rollback already undid it.
    public var compensated: Bool
    /// Secrets were masked in `output` when it was recorded: it is not what later steps used.
    public var outputMasked: Bool

    public init(
        key: CallKey, skill: String, attempt: Int, parameters: ValueObject, output: Value?, error: String?, order: Int,
        compensated: Bool, outputMasked: Bool = false
    ) {
        self.key = key
        self.skill = skill
        self.attempt = attempt
        self.parameters = parameters
        self.output = output
        self.error = error
        self.order = order
        self.compensated = compensated
        self.outputMasked = outputMasked
    }

    /// Started, and neither returned nor failed: the process died during the call.
    public var isUncertain: Bool { output == nil && error == nil }
}

/// A step's end as a journal kept it.
public struct JournaledStep: Sendable {
    public var step: String
    public var status: StepStatus
    public var output: Value?
    /// Secrets were masked in `output` when it was recorded.
    public var outputMasked: Bool

    public init(step: String, status: StepStatus, output: Value?, outputMasked: Bool = false) {
        self.step = step
        self.status = status
        self.output = output
        self.outputMasked = outputMasked
    }
}

extension ResumePlan {
    /// What a resumed run starts from, given what the journal holds of the earlier process.
    ///
    /// Calls that returned (and were not compensated) are reused; a call whose last attempt
    /// started but has no result is uncertain and `decide` chooses (re-run only if idempotent,
    /// otherwise ask the user); failed attempts are simply tried again.
    ///
    /// An output recorded with secrets masked is not the one the run used. A read-only call
    /// (`isReadOnly`) with such an output runs again (it has nothing to undo, so nothing is lost if
    /// it does not); any other is reused as recorded, never done twice, kept for rollback, and
    /// listed in `maskedOutputs`. A step whose recorded output was masked is not counted as
    /// finished: it is worked out again from its calls.
    public static func from(
        calls: [JournaledCall], steps: [JournaledStep], isReadOnly: (_ skill: String) -> Bool = { _ in false },
        decide: (JournaledCall) -> Uncertain
    ) -> ResumePlan {
        var plan = ResumePlan()
        // Only steps that finished well are kept; a failed step runs again (its completed calls are reused).
        for step in steps where (step.status == .succeeded || step.status == .skipped) && !step.outputMasked {
            plan.finishedSteps[step.step] = (step.status, step.output)
        }
        var done: Set<CallKey> = []
        for call in calls.sorted(by: { $0.order < $1.order }) where !call.compensated {
            guard let output = call.output, !done.contains(call.key) else { continue }
            if call.outputMasked {
                if isReadOnly(call.skill) { continue }
                plan.maskedOutputs.append(call.key)
            }
            done.insert(call.key)
            plan.completed.append(RecordedCall(key: call.key, skill: call.skill, call: CompletedCall(parameters: call.parameters, output: output)))
        }
        let latest = Dictionary(calls.map { ($0.key, $0) }, uniquingKeysWith: { $0.attempt >= $1.attempt ? $0 : $1 })
        for (key, call) in latest where !done.contains(key) && call.isUncertain {
            plan.uncertain[key] = decide(call)
        }
        return plan
    }

    /// The calls that started in the earlier process and have no result.
    public var uncertainKeys: [CallKey] { uncertain.keys.sorted() }
}

extension JournaledCall {
    /// `calls` (in order of starting) as `ResumePlan.from` takes them: the attempts of each call
    /// numbered again in order of starting, so that an attempt made by a resume counts as later
    /// than those before it.
    public static func renumbered(_ calls: [JournalCall]) -> [JournaledCall] {
        var attempts: [CallKey: Int] = [:]
        return calls.map { call in
            var journaled = call.journaled
            attempts[call.key, default: 0] += 1
            journaled.attempt = attempts[call.key] ?? call.attempt
            return journaled
        }
    }
}
