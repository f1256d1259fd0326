/// Migration 17 of `skillbook.sqlite`: deleting runs writes each changed page once.
///
/// - `run_counts_delete` updates the count `OR IGNORE`. A statement that fires a trigger which may
///   abort on a constraint (the `NOT NULL` of `run_counts.runs`, which `runs - 1` never breaks) keeps
///   a statement journal: SQLite copies each page the statement changes into a temporary file
///   first, so that it can undo the statement alone. Pruning's `DELETE FROM runs` changes about
///   9,000 pages for 50,000 runs of a million, and paid 0.15 s of system CPU for every 100,000 runs
///   for that copy alone. With `OR IGNORE` nothing in the statement can abort: no copy.
/// - `runs_by_status` goes: `runs_by_status_started (status, started)` begins with the status and
///   serves every read by status; each run written or deleted kept one index entry more.
///
/// Drops and creates a trigger and drops an index, in the migration's transaction: no table is
/// copied, whatever the history holds.
enum RunDeletesMigration {
    static let sql = """
        DROP TRIGGER IF EXISTS run_counts_delete;
        CREATE TRIGGER run_counts_delete AFTER DELETE ON runs BEGIN
            UPDATE OR IGNORE run_counts SET runs = runs - 1 WHERE playbook = OLD.playbook;
        END;
        DROP INDEX IF EXISTS runs_by_status;
        """
}
