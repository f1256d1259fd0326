/// Where a host keeps what lasts, and what that place can do: the run journal, the stores of the
/// built-in skills (notes, reminders), write locks on resources, the ledger of schedule fires and,
/// when the place is shared by machines, a queue of runs for workers.
///
/// Each backend target builds one (SkillbookSQLite's `SQLiteState.backend(stateDirectory:clock:)`,
/// SkillbookPostgres's `PostgresState.backend(_:clock:leases:worker:)`); the host asks it for each
/// capability and never names a backend's own types. A capability a backend does not have is
/// `nil` (SQLite has no run queue), never a value that silently does nothing.
///
/// The closures open on call and throw the backend's own error (a `StateFailure`: its message
/// names the store and what to do).
public struct StateBackend: Sendable {
    /// Opens the journal; called once per host call that records or reads runs.
    public var openJournal: @Sendable () throws -> any RunJournal
    public var stores: BuiltinStores
    /// The write locks of a run recorded in `journal`: locks that other processes sharing the state
    /// see too, so two runs never write one resource at once. `nil` when `journal` was not opened
    /// by this backend (the host then uses locks among its own runs, as for a dry run).
    public var resourceLocks: @Sendable (_ journal: any RunJournal) -> (any ResourceLocking)?
    /// Opens the ledger of schedule fires.
    public var openFireLedger: @Sendable () throws -> any AdoptingFireLedger
    /// Opens the ledger of notifications (claimed once per run and event, linked to their runs).
    public var openNotificationLedger: @Sendable () throws -> any NotificationLedger
    /// Opens the queue of runs that workers claim (`nil`: this backend keeps no queue, as a state
    /// of one machine does not). The queue is a journal too: the one its runs are recorded in.
    public var openRunQueue: (@Sendable () throws -> any RunQueue)?
    /// The approval requests and decisions of the runs recorded in `journal` (the same store, so
    /// a request and the run's `waiting` end are written together). `nil` when `journal` was not
    /// opened by this backend.
    public var approvals: @Sendable (_ journal: any RunJournal) -> (any ApprovalJournal)?

    public init(
        openJournal: @escaping @Sendable () throws -> any RunJournal, stores: BuiltinStores,
        resourceLocks: @escaping @Sendable (any RunJournal) -> (any ResourceLocking)?,
        openFireLedger: @escaping @Sendable () throws -> any AdoptingFireLedger,
        openNotificationLedger: @escaping @Sendable () throws -> any NotificationLedger,
        openRunQueue: (@Sendable () throws -> any RunQueue)?,
        approvals: @escaping @Sendable (any RunJournal) -> (any ApprovalJournal)?
    ) {
        self.approvals = approvals
        self.openNotificationLedger = openNotificationLedger
        self.openJournal = openJournal
        self.stores = stores
        self.resourceLocks = resourceLocks
        self.openFireLedger = openFireLedger
        self.openRunQueue = openRunQueue
    }

    /// Whether runs can be queued for workers on this backend.
    public var queuesRuns: Bool { openRunQueue != nil }

    /// A backend every capability of which fails with `failure` when used (a state that was
    /// named wrongly, such as a malformed connection string): the error comes on first use.
    public static func failing(_ failure: any Error & Sendable, queuesRuns: Bool) -> StateBackend {
        let openRunQueue: @Sendable () throws -> any RunQueue = { throw failure }
        return StateBackend(
            openJournal: { throw failure }, stores: BuiltinStores(notes: { throw failure }, reminders: { throw failure }),
            resourceLocks: { _ in nil }, openFireLedger: { throw failure }, openNotificationLedger: { throw failure },
            openRunQueue: queuesRuns ? openRunQueue : nil, approvals: { _ in nil })
    }
}
