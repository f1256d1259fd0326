import Foundation
public import SkillbookCore
import SkillbookSQL

extension SQLiteJournal: ApprovalJournal {
    /// Committed and flushed to disk before it returns, before the run's end says `waiting`.
    public func approvalRequested(_ request: ApprovalRequest) throws {
        try commit(synced: true) { () throws(StoreError) in
            _ = try execute(
                "INSERT INTO approvals (\(ApprovalRows.insertColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                ApprovalRows.parameters(request))
        }
    }

    public func pendingApprovals() throws -> [ApprovalRecord] {
        try query(
            """
            SELECT \(ApprovalRows.selectColumns) FROM runs r JOIN approvals a ON a.run = r.id
            WHERE r.status = 'waiting' AND a.verdict IS NULL AND a.id = (SELECT max(id) FROM approvals WHERE run = r.id)
            ORDER BY a.requested, a.id
            """
        ).map(record)
    }

    public func decidedWaiting() throws -> [ApprovalRecord] {
        try query(
            """
            SELECT \(ApprovalRows.selectColumns) FROM runs r JOIN approvals a ON a.run = r.id
            WHERE r.status = 'waiting' AND a.verdict IS NOT NULL AND a.id = (SELECT max(id) FROM approvals WHERE run = r.id)
            ORDER BY a.decided_at, a.id
            """
        ).map(record)
    }

    public func approvals(ofRun runID: String) throws -> [ApprovalRecord] {
        try query(
            "SELECT \(ApprovalRows.selectColumns) FROM approvals a JOIN runs r ON r.id = a.run WHERE a.run = ?1 ORDER BY a.id",
            [.text(runID)]
        ).map(record)
    }

    /// In one transaction (`BEGIN IMMEDIATE`): two processes deciding at once are one after the other,
    /// and the second is refused.
    @discardableResult
    public func decide(_ runID: String, step: StepPath?, _ decision: ApprovalDecision) throws -> ApprovalRecord {
        try database.transaction { () throws -> ApprovalRecord in
            guard let run = try run(runID) else { throw JournalError(.notFound, "no run \(runID) in \(location)") }
            let row = try query(
                """
                SELECT \(ApprovalRows.selectColumns) FROM approvals a JOIN runs r ON r.id = a.run
                WHERE a.run = ?1 ORDER BY a.id DESC LIMIT 1
                """, [.text(runID)]
            ).first
            let newest = try row.map(record)
            if let refusal = ApprovalRows.refusal(runID, newest: newest, status: run.status, step: step) { throw refusal }
            guard var decided = newest, let id = row?.int("id") else { throw ApprovalRefusal.noRequest(runID, status: run.status) }
            try execute(
                "UPDATE approvals SET verdict = ?2, decided_by = ?3, decided_at = ?4, reason = ?5 WHERE id = ?1 AND verdict IS NULL",
                [.integer(id)] + ApprovalRows.decisionParameters(decision))
            decided.decision = decision
            return decided
        }
    }

    private func record(_ row: Row) throws(StoreError) -> ApprovalRecord {
        try ApprovalRows.record(row) { what in
            StoreError(
                .malformedRow, message: "state database \(database.path) has a malformed \(what); it was probably edited by hand",
                path: database.path)
        }
    }
}
