import SkillbookCore
import SkillbookSQL

/// Long texts kept once (see `JournalBlobs` and `BlobsMigration`).
extension SQLiteJournal {
    /// Writes the blobs of `blobs` the journal does not hold yet, and that `runID` refers to each.
    /// Call inside the transaction that writes the rows referring to them.
    func keep(_ blobs: [JournalBlob], forRun runID: String) throws(StoreError) {
        for blob in blobs {
            let held = try database.locked { (_) throws(StoreError) in
                try statements.statement("SELECT 1 FROM blobs WHERE hash = ?1", in: database).query([.text(blob.hash)])
            }
            if held.isEmpty {
                // The row with a zero-filled blob of the right size, then the bytes into it.
                try execute(
                    "INSERT INTO blobs (hash, size, content) VALUES (?1, ?2, zeroblob(?2))", [.text(blob.hash), .integer(blob.size)])
                try database.writeIncrementally(blob.text, table: "blobs", column: "content", row: database.lastInsertRowID)
            }
            try execute("INSERT OR IGNORE INTO run_blobs (run, hash) VALUES (?1, ?2)", [.text(runID), .text(blob.hash)])
        }
    }

    /// The text kept under `hash`; `nil` when there is none.
    func blobText(_ hash: String) throws(StoreError) -> String? {
        let rows = try database.locked { (_) throws(StoreError) in
            try statements.statement("SELECT content FROM blobs WHERE hash = ?1", in: database).query([.text(hash)])
        }
        guard let first = rows.first else { return nil }
        switch first[0] {
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        case .text(let text): return text
        default: return nil
        }
    }

    /// Forgets which blobs the runs of `temp.pruning` (being pruned, see `pruningTable`) refer to,
    /// and deletes those blobs no other run refers to: two statements, each by an index (the run's
    /// rows, then each hash's).
    func deleteBlobsOfPrunedRuns() throws(StoreError) {
        let hashes = try database.locked { (_) throws(StoreError) in
            try statements.statement("DELETE FROM run_blobs WHERE run IN (SELECT id FROM temp.pruning) RETURNING hash", in: database)
                .query([])
        }.compactMap { $0.string("hash") }
        guard !hashes.isEmpty else { return }
        try execute(
            """
            DELETE FROM blobs WHERE hash IN (SELECT value FROM json_each(?1))
                AND NOT EXISTS (SELECT 1 FROM run_blobs WHERE run_blobs.hash = blobs.hash)
            """, [.text(JSONText.encode(.array(Set(hashes).sorted().map(Value.string))))])
    }
}
