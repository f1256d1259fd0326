/// Migration 13 of `skillbook.sqlite`: history at scale.
///
/// - `keep_until`: a run whose playbook has its own `retention.days` is kept until then (seconds
///   since 1970); `NULL` for the others, which follow the workspace's `days` by `started`. Each
///   rule has a partial index, so a pass of pruning reads only what it deletes.
/// - `run_counts`: how many runs each playbook has, kept by triggers, so that the caps
///   (`max_runs`) and the list of playbooks cost no count of `runs`.
/// - Indexes for the runs list's filters by status and trigger, each ending with `started` (and the
///   rowid), so a page is a range read in the order shown.
///
/// Independent of other migrations: its own column, table, triggers and indexes, `IF NOT EXISTS`.
enum RetentionMigration {
    static let sql = """
        ALTER TABLE runs ADD COLUMN keep_until REAL;
        CREATE INDEX IF NOT EXISTS runs_by_keep_until ON runs (keep_until) WHERE keep_until IS NOT NULL;
        CREATE INDEX IF NOT EXISTS runs_by_age ON runs (started) WHERE keep_until IS NULL;
        CREATE INDEX IF NOT EXISTS runs_by_status_started ON runs (status, started);
        CREATE INDEX IF NOT EXISTS runs_by_trigger ON runs (trigger, started);
        CREATE TABLE IF NOT EXISTS run_counts (
            playbook TEXT PRIMARY KEY NOT NULL,
            runs INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT OR REPLACE INTO run_counts (playbook, runs) SELECT playbook, count(*) FROM runs GROUP BY playbook;
        CREATE TRIGGER IF NOT EXISTS run_counts_insert AFTER INSERT ON runs BEGIN
            INSERT INTO run_counts (playbook, runs) VALUES (NEW.playbook, 1)
                ON CONFLICT (playbook) DO UPDATE SET runs = runs + 1;
        END;
        CREATE TRIGGER IF NOT EXISTS run_counts_delete AFTER DELETE ON runs BEGIN
            UPDATE run_counts SET runs = runs - 1 WHERE playbook = OLD.playbook;
        END;
        """
}
