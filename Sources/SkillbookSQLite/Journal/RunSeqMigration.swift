/// Migration 15 of `skillbook.sqlite`: the rows of a run found by its insertion order, not its id.
///
/// Run ids are random, so an index keyed by them (`calls_by_run`, `steps_by_run`, …) holds the
/// entries of the oldest runs spread over all its pages: pruning them rewrote nearly every page of
/// each such index. `runs.seq` numbers the runs in the order they were inserted (the rowid at the
/// migration, then the next number: `SQLiteJournal.nextRunSeq`), and the tables that have rows for
/// every run (`calls`, `call_results`, `steps`, `sessions`) carry it as `run_seq`, indexed in its
/// place: the oldest runs' entries are one range at the start of each index, and pruning deletes
/// ranges (see SQLiteJournal+Prune). The tables most runs have no row in (`compensations`,
/// `resource_waits`, `approvals`) keep their index on the run's id.
///
/// A run inserted without a `seq` (by hand, by an older tool) gets the next one from
/// `runs_seq_missing`, a row of those tables without `run_seq` its run's from `…_run_seq_missing`:
/// skillbook's own inserts give both, so the triggers do nothing on its path.
///
/// Their foreign keys stay as declared (SQLite cannot drop one without copying the table), but with
/// no index on `run` left, deleting a run would make SQLite scan each of these tables for its rows:
/// the journal deletes them itself, with foreign keys off for that transaction.
enum RunSeqMigration {
    static let childTables = ["calls", "call_results", "steps", "sessions"]

    static let sql = """
        ALTER TABLE runs ADD COLUMN seq INTEGER;
        UPDATE runs SET seq = rowid;
        CREATE UNIQUE INDEX IF NOT EXISTS runs_by_seq ON runs (seq);
        CREATE TRIGGER IF NOT EXISTS runs_seq_missing AFTER INSERT ON runs WHEN NEW.seq IS NULL BEGIN
            UPDATE runs SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM runs) WHERE rowid = NEW.rowid;
        END;
        ALTER TABLE calls ADD COLUMN run_seq INTEGER;
        UPDATE calls SET run_seq = (SELECT seq FROM runs WHERE runs.id = calls.run);
        CREATE INDEX IF NOT EXISTS calls_by_run_seq ON calls (run_seq, seq);
        DROP INDEX IF EXISTS calls_by_run;
        ALTER TABLE call_results ADD COLUMN run_seq INTEGER;
        UPDATE call_results SET run_seq = (SELECT seq FROM runs WHERE runs.id = call_results.run);
        CREATE INDEX IF NOT EXISTS call_results_by_run_seq ON call_results (run_seq, seq);
        DROP INDEX IF EXISTS call_results_by_run;
        ALTER TABLE steps ADD COLUMN run_seq INTEGER;
        UPDATE steps SET run_seq = (SELECT seq FROM runs WHERE runs.id = steps.run);
        CREATE INDEX IF NOT EXISTS steps_by_run_seq ON steps (run_seq);
        DROP INDEX IF EXISTS steps_by_run;
        ALTER TABLE sessions ADD COLUMN run_seq INTEGER;
        UPDATE sessions SET run_seq = (SELECT seq FROM runs WHERE runs.id = sessions.run);
        CREATE INDEX IF NOT EXISTS sessions_by_run_seq ON sessions (run_seq);
        DROP INDEX IF EXISTS sessions_by_run;
        \(childTables.map(missingTrigger).joined(separator: "\n"))
        """

    private static func missingTrigger(_ table: String) -> String {
        """
        CREATE TRIGGER IF NOT EXISTS \(table)_run_seq_missing AFTER INSERT ON \(table) WHEN NEW.run_seq IS NULL BEGIN
            UPDATE \(table) SET run_seq = (SELECT seq FROM runs WHERE id = NEW.run) WHERE rowid = NEW.rowid;
        END;
        """
    }
}

/// SQL for a run's `seq` (see `RunSeqMigration`).
enum RunSeq {
    /// The `seq` of the run whose id is the parameter `parameter` (`?1`): one read of the primary key.
    static func of(_ parameter: String) -> String { "(SELECT seq FROM runs WHERE id = \(parameter))" }

    /// The `seq` a run inserted now takes: one past the greatest (the end of `runs_by_seq`).
    static let next = "(SELECT coalesce(max(seq), 0) + 1 FROM runs)"
}
