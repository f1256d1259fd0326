import SkillbookCore
import SkillbookSQL

/// Long texts kept once (see `JournalBlobs`; the tables are migration 10's on PostgreSQL, 16 on SQLite).
extension PostgresJournal {
    /// Writes the blobs of `blobs` the state does not hold yet, and that `runID` refers to each,
    /// before the rows that refer to them are written: in one transaction that holds the blob lock
    /// shared, so that a pruning deleting blobs (which holds it exclusively, see
    /// `deleteBlobs(ofRuns:in:)`) either sees the reference or has committed before the blob is
    /// looked up — and then it is written again.
    func keep(_ blobs: [JournalBlob], forRun runID: String) throws {
        guard !blobs.isEmpty else { return }
        try database.transaction(doing: "recording a long text of run \(runID)") { transaction in
            try transaction.query("SELECT pg_advisory_xact_lock_shared($1)", [.integer(Self.blobLockKey)])
            for blob in blobs {
                try transaction.run(
                    "INSERT INTO run_blobs (run, hash) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.text(runID), .text(blob.hash)])
                let held = try transaction.query("SELECT 1 AS held FROM blobs WHERE hash = $1", [.text(blob.hash)])
                guard held.isEmpty else { continue }
                try transaction.run(
                    "INSERT INTO blobs (hash, size, content) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING",
                    [.text(blob.hash), .integer(blob.size), .text(blob.text)])
            }
        }
    }

    /// The advisory lock that orders keeping a blob against deleting blobs: any key will do as long
    /// as every skillbook process uses the same one ("sklblb").
    static let blobLockKey = 0x736b_6c62_6c62

    /// The text kept under `hash`; `nil` when there is none.
    func blobText(_ hash: String) throws(PostgresError) -> String? {
        try database.query("SELECT content FROM blobs WHERE hash = $1", [.text(hash)], doing: "reading a long text").first?.string("content")
    }

    /// Forgets which blobs the runs `ids` (being pruned) refer to, and deletes those blobs no other
    /// run refers to: one statement, by the indexes on `run_blobs` (the runs', then each hash's).
    /// It holds the blob lock exclusively until the pruning commits, so its snapshot holds every
    /// reference a run has finished keeping, and no run keeps one meanwhile (see `keep`).
    static func deleteBlobs(ofRuns ids: [String], in transaction: PostgresDatabase.Transaction) throws(PostgresError) {
        guard !ids.isEmpty else { return }
        try transaction.query("SELECT pg_advisory_xact_lock($1)", [.integer(blobLockKey)])
        try transaction.run(
            """
            WITH gone AS (
                DELETE FROM run_blobs WHERE run IN (SELECT json_array_elements_text($1::json)) RETURNING hash
            )
            DELETE FROM blobs WHERE hash IN (SELECT hash FROM gone)
                AND NOT EXISTS (
                    SELECT 1 FROM run_blobs r WHERE r.hash = blobs.hash AND r.run NOT IN (SELECT json_array_elements_text($1::json)))
            """, [.text(JSONText.encode(.array(ids.map(Value.string))))])
    }
}
