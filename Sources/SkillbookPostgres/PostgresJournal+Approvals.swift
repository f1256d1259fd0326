import Foundation
public import SkillbookCore
import SkillbookSQL

extension PostgresJournal: ApprovalJournal {
    /// Fenced like every write of a held run: a journal that lost the lease records no request.
    public func approvalRequested(_ request: ApprovalRequest) throws {
        let epoch = try fence(request.runID)
        let changed = try database.run(
            """
            INSERT INTO approvals (\(ApprovalRows.insertColumns))
            SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
            WHERE EXISTS (SELECT 1 FROM runs WHERE id = $1 AND epoch = $12 AND status = 'running')
            """, ApprovalRows.parameters(request) + [.integer(epoch)], doing: "recording the approval request of run \(request.runID)")
        try fenced(changed, request.runID)
    }

    public func pendingApprovals() throws -> [ApprovalRecord] {
        try database.query(
            """
            SELECT \(ApprovalRows.selectColumns) FROM runs r JOIN approvals a ON a.run = r.id
            WHERE r.status = 'waiting' AND a.verdict IS NULL AND a.id = (SELECT max(id) FROM approvals WHERE run = r.id)
            ORDER BY a.requested, a.id
            """, doing: "listing approval requests"
        ).map(record)
    }

    public func decidedWaiting() throws -> [ApprovalRecord] {
        try database.query(
            """
            SELECT \(ApprovalRows.selectColumns) FROM runs r JOIN approvals a ON a.run = r.id
            WHERE r.status = 'waiting' AND a.verdict IS NOT NULL AND a.id = (SELECT max(id) FROM approvals WHERE run = r.id)
            ORDER BY a.decided_at, a.id
            """, doing: "listing decided approval requests"
        ).map(record)
    }

    public func approvals(ofRun runID: String) throws -> [ApprovalRecord] {
        try database.query(
            "SELECT \(ApprovalRows.selectColumns) FROM approvals a JOIN runs r ON r.id = a.run WHERE a.run = $1 ORDER BY a.id",
            [.text(runID)], doing: "reading the approval requests of run \(runID)"
        ).map(record)
    }

    /// In one transaction that locks the run's row (`FOR UPDATE`): two deciders at once are one
    /// after the other, and the second is refused.
    @discardableResult
    public func decide(_ runID: String, step: StepPath?, _ decision: ApprovalDecision) throws -> ApprovalRecord {
        try database.transaction(doing: "deciding the approval of run \(runID)") { transaction in
            guard let runRow = try transaction.query("SELECT \(Self.runColumns) FROM runs WHERE id = $1 FOR UPDATE", [.text(runID)]).first
            else { throw JournalError(.notFound, "no run \(runID) in \(location)") }
            let run = try journalRun(runRow)
            let row = try transaction.query(
                """
                SELECT \(ApprovalRows.selectColumns) FROM approvals a JOIN runs r ON r.id = a.run
                WHERE a.run = $1 ORDER BY a.id DESC LIMIT 1
                """, [.text(runID)]
            ).first
            let newest = try row.map(record)
            if let refusal = ApprovalRows.refusal(runID, newest: newest, status: run.status, step: step) { throw refusal }
            guard var decided = newest, let id = row?.int("id") else { throw ApprovalRefusal.noRequest(runID, status: run.status) }
            try transaction.run(
                "UPDATE approvals SET verdict = $2, decided_by = $3, decided_at = $4, reason = $5 WHERE id = $1 AND verdict IS NULL",
                [.integer(id)] + ApprovalRows.decisionParameters(decision))
            decided.decision = decision
            return decided
        }
    }

    /// Puts a `waiting` run whose approval was decided back for the workers, as a continuation: it
    /// is `running` with a lease that has lapsed, so the next `claimNext` takes it over (the next
    /// epoch, `wasQueued` false) and goes on under the resume rules. Wakes the workers.
    public func requeueDecided(_ runID: String) throws {
        let changed = try database.run(
            """
            UPDATE runs SET status = 'running', lease_expires = 0, worker = coalesce(worker, 'approval'), finished = NULL
            WHERE id = $1 AND status = 'waiting'
            """, [.text(runID)], doing: "queueing run \(runID) again after its approval")
        guard changed > 0 else {
            let status = try run(runID)?.status ?? .interrupted
            throw ApprovalRefusal.movedOn(runID, status: status)
        }
        try PostgresListener.notify(database, channel: Self.queueChannel, payload: runID)
    }

    private func record(_ row: Row) throws(PostgresError) -> ApprovalRecord {
        try ApprovalRows.record(row) { what in
            PostgresError(.malformedRow, message: "state database \(location) has a malformed \(what); it was probably edited by hand")
        }
    }
}
