/// Migration 9 of a PostgreSQL state (as the SQLite state's `RunSeqMigration`): the rows of a run
/// found by its insertion order (`runs.seq`), not its random id, so that the oldest runs' rows are
/// one range at the start of each index and pruning deletes ranges.
///
/// `calls`, `steps` and `sessions` (the tables with rows for every run) carry the run's `seq` as
/// `run_seq`, indexed in place of `run`, and lose their foreign key: with no index on `run`, each
/// deleted run would make PostgreSQL scan them for its rows, so pruning deletes those rows itself
/// (see PostgresJournal+Prune). A row inserted without `run_seq` gets its run's from the trigger
/// `…_run_seq`, so the inserts name only the run's id. The tables most runs have no row in
/// (`compensations`, `resource_waits`, `approvals`) keep their index and `ON DELETE CASCADE`.
enum PostgresRunSeq {
    static let childTables = ["calls", "steps", "sessions"]

    /// The `seq` of the run whose id is `expression` (`$1`): one read of the primary key.
    static func of(_ expression: String) -> String { "(SELECT seq FROM runs WHERE id = \(expression))" }

    static let migration = """
        CREATE UNIQUE INDEX IF NOT EXISTS runs_by_seq ON runs (seq);
        CREATE OR REPLACE FUNCTION skillbook_run_seq() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.run_seq := (SELECT seq FROM runs WHERE id = NEW.run);
            RETURN NEW;
        END $$;
        \(childTables.map(childMigration).joined(separator: "\n"))
        CREATE INDEX IF NOT EXISTS calls_by_run_seq_id ON calls (run_seq, id);
        DROP INDEX IF EXISTS calls_by_run_id;
        """

    private static func childMigration(_ table: String) -> String {
        let key = table == "calls" ? "(run_seq, seq)" : "(run_seq)"
        return """
            ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS run_seq BIGINT;
            UPDATE \(table) SET run_seq = runs.seq FROM runs WHERE runs.id = \(table).run AND \(table).run_seq IS NULL;
            CREATE INDEX IF NOT EXISTS \(table)_by_run_seq ON \(table) \(key);
            DROP INDEX IF EXISTS \(table)_by_run;
            ALTER TABLE \(table) DROP CONSTRAINT IF EXISTS \(table)_run_fkey;
            DROP TRIGGER IF EXISTS \(table)_run_seq ON \(table);
            CREATE TRIGGER \(table)_run_seq BEFORE INSERT ON \(table) FOR EACH ROW WHEN (NEW.run_seq IS NULL)
                EXECUTE FUNCTION skillbook_run_seq();
            """
    }
}
