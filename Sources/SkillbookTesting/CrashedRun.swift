public import Foundation
public import SkillbookCore
public import SkillbookSQLite
import SkillbookSQL

/// The SQLite journal of `stateDirectory` as seen by a process that has since died: what it
/// records is a run left by a crash (interrupted, its calls in progress uncertain).
public func crashedJournal(stateDirectory: URL) throws -> SQLiteJournal {
    let me = ProcessProbe.live.current()
    let dead = ProcessIdentity(pid: try deadProcessID(), host: me.host, boot: me.boot)
    return try SQLiteJournal(stateDirectory: stateDirectory, probe: probe(as: dead))
}

/// Records, as a process that then died, a run of `file` that got as far as `calls` (each
/// `(step, skill, output)`; a `nil` output is a call in progress when the process died).
public func recordCrashedRun(
    stateDirectory: URL, file: URL, playbook: String, inputs: ValueObject = [:],
    calls: [(step: String, skill: String, output: Value?)]
) throws -> String {
    let journal = try crashedJournal(stateDirectory: stateDirectory)
    let text = try String(contentsOf: file, encoding: .utf8)
    let runID = UUID().uuidString.lowercased()
    try journal.setFile(file.path, forRun: runID)
    try journal.runStarted(
        RunRecord(
            runID: runID, playbook: playbook, source: text, sourceHash: SourceHash.of(text), inputs: inputs, trigger: .cli,
            started: Date(), dryRun: false))
    for call in calls {
        let record = CallRecord(runID: runID, key: CallKey(step: StepPath(step: call.step)), skill: call.skill, attempt: 1, parameters: [:], started: Date())
        try journal.callStarted(record)
        if let output = call.output {
            try journal.callFinished(record, output: output, error: nil, finished: Date())
            try journal.stepFinished(runID: runID, step: call.step, status: .succeeded, output: output, error: nil)
        }
    }
    return runID
}
