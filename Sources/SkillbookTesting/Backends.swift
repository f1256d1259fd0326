public import Foundation
public import SkillbookCore
public import SkillbookPostgres
public import SkillbookSQL
import SkillbookSQLite

/// The two state backends, for tests that must pass on both alike: `@Test(arguments: Backend.allCases)`.
public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }

    /// A fresh, empty state of this backend.
    public func makeState() async throws -> TestState {
        switch self {
        case .sqlite:
            let directory = TemporaryDirectory()
            return TestState(backend: self, directory: directory, url: nil, string: directory.state.path)
        case .postgres:
            let string = try await PostgresCluster.freshDatabase()
            return TestState(backend: self, directory: TemporaryDirectory(), url: PostgresURL(string), string: string)
        }
    }
}

/// One state (an SQLite state directory or a Postgres database) and ways to open its stores, each
/// call a separate connection, as separate processes would have.
public struct TestState: Sendable {
    public let backend: Backend
    public let directory: TemporaryDirectory
    public let url: PostgresURL?
    /// What `--state` takes: the state directory, or the connection string.
    public let string: String

    /// The backend as the host gets it, through the target's entry point.
    public func stateBackend(clock: any WallClock = SystemClock(), leases: LeaseSettings = LeaseSettings(), worker: String? = nil) -> StateBackend {
        switch backend {
        case .sqlite: SQLiteState.backend(stateDirectory: directory.state, clock: clock)
        case .postgres: PostgresState.backend(string, clock: clock, leases: leases, worker: worker)
        }
    }

    public func journal(
        probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), heartbeatInterval: Double = 2, leaseDuration: Double = 15
    ) throws -> any RunJournal {
        if let url {
            return PostgresJournal(
                database: try PostgresDatabase(url), probe: probe, clock: clock, heartbeatInterval: heartbeatInterval,
                leaseDuration: leaseDuration)
        }
        return try SQLiteJournal(
            database: try StateDatabase.openSeparately(stateDirectory: directory.state), probe: probe, clock: clock,
            heartbeatInterval: heartbeatInterval, leaseDuration: leaseDuration)
    }

    public func notes(clock: any WallClock = SystemClock()) throws -> any NotesStoring {
        if let url { return PostgresNotesStore(database: try PostgresDatabase(url), clock: clock) }
        return try NotesStore(stateDirectory: directory.state, clock: clock)
    }

    public func reminders(clock: any WallClock = SystemClock()) throws -> any RemindersStoring {
        if let url { return PostgresRemindersStore(database: try PostgresDatabase(url), clock: clock) }
        return try RemindersStore(stateDirectory: directory.state, clock: clock)
    }

    public func locks(
        probe: ProcessProbe = .live, clock: any WallClock = SystemClock(), pollInterval: Double = 0.01, leaseDuration: Double = 15
    ) throws -> any ResourceLocking {
        if let url {
            return PostgresResourceLocks(
                database: try PostgresDatabase(url), probe: probe, clock: clock, pollInterval: pollInterval, leaseDuration: leaseDuration)
        }
        return try SQLiteResourceLocks(
            database: try StateDatabase.openSeparately(stateDirectory: directory.state), probe: probe, clock: clock,
            pollInterval: pollInterval, leaseDuration: leaseDuration)
    }

    /// Who holds each resource now.
    public func lockHolders() throws -> [String: String] {
        if let url { return try PostgresResourceLocks(database: try PostgresDatabase(url)).holders() }
        return try SQLiteResourceLocks(database: try StateDatabase.openSeparately(stateDirectory: directory.state)).holders()
    }

    public func ledger(pid: Int32 = getpid()) throws -> any AdoptingFireLedger {
        if let url { return PostgresFireLedger(database: try PostgresDatabase(url), pid: pid) }
        return SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: directory.state), pid: pid)
    }

    /// The fires recorded for `playbook`, newest first, and whether each started a run.
    public func recordedFires(playbook: String) throws -> [(fire: Fire, started: Bool)] {
        if let url { return try PostgresFireLedger(database: try PostgresDatabase(url)).fires(playbook: playbook) }
        return try SQLiteFireLedger(database: try StateDatabase.openSeparately(stateDirectory: directory.state)).fires(playbook: playbook)
            .map { ($0.fire, $0.started) }
    }
}

/// The pid of a process that has exited (and been reaped): known dead on this machine.
public func deadProcessID() throws -> Int32 {
    let child = try ChildProgram("/bin/true")
    _ = child.waitUntilExit()
    return child.pid
}

/// A probe whose current process is `identity`, judging others like the real one.
public func probe(as identity: ProcessIdentity) -> ProcessProbe {
    ProcessProbe(current: { identity }, state: ProcessProbe.live.state)
}

extension RunRecord {
    public static func sample(_ id: String, playbook: String = "sample", started: Date = Date(), inputs: ValueObject = ["name": "Ada"]) -> RunRecord {
        RunRecord(
            runID: id, playbook: playbook, source: "name: \(playbook)\n", sourceHash: SourceHash.of("name: \(playbook)\n"),
            inputs: inputs, trigger: .cli, started: started, dryRun: false)
    }
}

public func call(_ runID: String, _ step: String, batch: Int? = nil, skill: String = "notes.create", attempt: Int = 1) -> CallRecord {
    CallRecord(
        runID: runID, key: CallKey(step: StepPath(parsing: step), batch: batch), skill: skill, attempt: attempt, parameters: ["title": .string(step)],
        started: Date())
}

public func finished(_ runID: String, _ status: RunStatus, error: String? = nil, kind: FailureKind? = nil, steps: [StepReport] = []) -> RunResult {
    var result = RunResult(runID: runID, playbook: "sample", status: status, steps: steps, error: error, started: Date(), finished: Date())
    result.failureKind = kind
    return result
}
