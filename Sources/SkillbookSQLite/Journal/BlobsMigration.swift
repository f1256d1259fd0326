/// Migration 16 of `skillbook.sqlite`: long texts kept once (see `JournalBlobs`).
///
/// - `blobs`: each long text the journal holds, once, by its SHA-256, with its size in bytes.
/// - `run_blobs`: which runs' rows refer to which blobs; pruning a run deletes its rows here, then
///   the blobs no run refers to any more (`SQLiteJournal.deleteBlobs(ofRuns:)`), by the index on
///   the hash. No foreign key to `runs`: that delete needs the hashes of the runs it goes with.
///
/// Rows written before it keep their texts inline; they are read as before.
enum BlobsMigration {
    static let sql = """
        CREATE TABLE IF NOT EXISTS blobs (
            hash TEXT PRIMARY KEY NOT NULL,
            size INTEGER NOT NULL,
            content BLOB NOT NULL
        );
        CREATE TABLE IF NOT EXISTS run_blobs (
            run TEXT NOT NULL,
            hash TEXT NOT NULL,
            PRIMARY KEY (run, hash)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS run_blobs_by_hash ON run_blobs (hash);
        """
}
