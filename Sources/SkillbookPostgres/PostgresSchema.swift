import Foundation
import SkillbookSQL

/// The schema of a PostgreSQL state and its versioned migrations, recorded in
/// `skillbook_schema` (one row per version applied). Add a step at the end; never edit or reorder
/// a step that has shipped.
///
/// The tables mirror `skillbook.sqlite` (see `StateDatabase`): times are seconds since 1970
/// (`double precision`), values JSON text (kept as text, so key order survives). Differences:
/// `seq` columns (`bigserial`) give the insertion order SQLite's rowid gives; a run carries a lease
/// (`epoch`, `lease_expires`, `worker`) that fences every write of it; `queued` runs wait for a
/// worker.
///
/// Why the tables are written out here again rather than rendered from one description shared with
/// SQLite: a migration that has shipped is history and must never change, and the two histories
/// differ (SQLite reached these tables in nine steps, each with its own `ALTER TABLE`; PostgreSQL
/// in one), as do the dialects beyond the column types (`CHECK (json_valid(…))` and `WITHOUT ROWID`
/// there; `BIGSERIAL` order columns, partial indexes on the queue and lease columns here). A shared
/// renderer would have to reproduce every shipped SQLite step to the letter and would hide from a
/// reader what each database actually holds. What is shared is what reads and writes the rows
/// (`SkillbookSQL`: `JournalRows`, `JournalTables`), and `BackendJournalTests` keeps the two
/// schemas answering alike.
enum PostgresSchema {
    static let migrations: [String] = [
        // 1: everything the SQLite state holds after its migration 7, plus leases and the queue.
        """
        CREATE TABLE notes (
            id TEXT PRIMARY KEY,
            position BIGSERIAL NOT NULL UNIQUE,
            title TEXT NOT NULL,
            body TEXT NOT NULL DEFAULT '',
            tags TEXT NOT NULL DEFAULT '[]',
            created TEXT NOT NULL
        );
        CREATE INDEX notes_by_created ON notes (created, position);
        CREATE TABLE reminders (
            id TEXT PRIMARY KEY,
            position BIGSERIAL NOT NULL UNIQUE,
            title TEXT NOT NULL,
            due TEXT,
            notes TEXT NOT NULL DEFAULT '',
            done BOOLEAN NOT NULL DEFAULT false,
            created TEXT NOT NULL,
            completed_at TEXT,
            CHECK (done = (completed_at IS NOT NULL))
        );
        CREATE INDEX reminders_by_due ON reminders (due);
        CREATE TABLE runs (
            id TEXT PRIMARY KEY,
            seq BIGSERIAL NOT NULL,
            playbook TEXT NOT NULL,
            file TEXT,
            source TEXT NOT NULL DEFAULT '',
            source_hash TEXT NOT NULL DEFAULT '',
            inputs TEXT NOT NULL DEFAULT '{}',
            trigger TEXT NOT NULL DEFAULT 'cli',
            status TEXT NOT NULL,
            interrupted BOOLEAN NOT NULL DEFAULT false,
            started DOUBLE PRECISION NOT NULL,
            finished DOUBLE PRECISION,
            pid INTEGER,
            host TEXT,
            boot TEXT,
            process_start TEXT,
            heartbeat DOUBLE PRECISION,
            error TEXT,
            outputs TEXT,
            report TEXT,
            failure_kind TEXT,
            scheduled_at DOUBLE PRECISION,
            epoch BIGINT NOT NULL DEFAULT 0,
            lease_expires DOUBLE PRECISION,
            worker TEXT,
            queued DOUBLE PRECISION
        );
        CREATE INDEX runs_by_started ON runs (started, seq);
        CREATE INDEX runs_by_playbook ON runs (playbook, started);
        CREATE INDEX runs_by_status ON runs (status);
        CREATE INDEX runs_queued ON runs (queued, seq) WHERE status = 'queued';
        CREATE INDEX runs_by_schedule ON runs (playbook, scheduled_at) WHERE scheduled_at IS NOT NULL;
        CREATE TABLE sessions (
            id BIGSERIAL PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            started DOUBLE PRECISION NOT NULL,
            ended DOUBLE PRECISION,
            outcome TEXT,
            epoch BIGINT NOT NULL DEFAULT 0
        );
        CREATE INDEX sessions_by_run ON sessions (run);
        CREATE TABLE calls (
            id BIGSERIAL PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            iteration INTEGER,
            batch INTEGER,
            skill TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            parameters TEXT NOT NULL,
            output TEXT,
            error TEXT,
            started DOUBLE PRECISION NOT NULL,
            finished DOUBLE PRECISION,
            compensated BOOLEAN NOT NULL DEFAULT false,
            seq BIGINT NOT NULL,
            masked BOOLEAN NOT NULL DEFAULT false
        );
        CREATE INDEX calls_by_run ON calls (run, seq);
        CREATE TABLE steps (
            id BIGSERIAL PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            status TEXT NOT NULL,
            output TEXT,
            error TEXT,
            finished DOUBLE PRECISION NOT NULL,
            masked BOOLEAN NOT NULL DEFAULT false
        );
        CREATE INDEX steps_by_run ON steps (run);
        CREATE TABLE compensations (
            id BIGSERIAL PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            iteration INTEGER,
            batch INTEGER,
            error TEXT,
            finished DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX compensations_by_run ON compensations (run);
        CREATE TABLE resource_locks (
            resource TEXT PRIMARY KEY,
            run TEXT NOT NULL,
            step TEXT NOT NULL,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            boot TEXT,
            process_start TEXT,
            acquired DOUBLE PRECISION NOT NULL,
            heartbeat DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX resource_locks_by_run ON resource_locks (run);
        CREATE TABLE resource_waits (
            id BIGSERIAL PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            resources TEXT NOT NULL,
            held_by TEXT,
            started DOUBLE PRECISION NOT NULL,
            ended DOUBLE PRECISION,
            outcome TEXT
        );
        CREATE INDEX resource_waits_by_run ON resource_waits (run);
        CREATE TABLE fires (
            playbook TEXT NOT NULL,
            entry INTEGER NOT NULL,
            scheduled_ms BIGINT NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('started', 'skipped')),
            catch_up BOOLEAN NOT NULL DEFAULT false,
            recorded DOUBLE PRECISION NOT NULL,
            pid INTEGER,
            host TEXT,
            PRIMARY KEY (playbook, entry, scheduled_ms)
        );
        CREATE TABLE schedule_entries (
            playbook TEXT NOT NULL,
            entry INTEGER NOT NULL,
            state TEXT NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (playbook, entry)
        );
        """,
        // 2: the workspace folder a run was started in (as the SQLite state's migration 8), so that a
        // resume or rollback loads the same skills from anywhere.
        "ALTER TABLE runs ADD COLUMN workspace TEXT;",
        // 3: approval requests of runs that wait at a call nobody could confirm, and their decisions
        // (as the SQLite state's `approvals`; see PostgresJournal+Approvals).
        """
        CREATE TABLE IF NOT EXISTS approvals (
            id BIGSERIAL PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            iteration INTEGER,
            batch INTEGER,
            skill TEXT NOT NULL,
            title TEXT NOT NULL,
            parameters TEXT NOT NULL,
            touches TEXT,
            calls INTEGER NOT NULL,
            requested DOUBLE PRECISION NOT NULL,
            expires DOUBLE PRECISION NOT NULL,
            verdict TEXT CHECK (verdict IN ('approved', 'declined', 'expired')),
            decided_by TEXT,
            decided_at DOUBLE PRECISION,
            reason TEXT
        );
        CREATE INDEX IF NOT EXISTS approvals_by_run ON approvals (run, id);
        CREATE INDEX IF NOT EXISTS runs_waiting ON runs (status) WHERE status = 'waiting';
        """,
        // 4: fires not started, in batches with their reason (as the SQLite state's migration 11).
        """
        CREATE TABLE IF NOT EXISTS missed_fires (
            playbook TEXT NOT NULL,
            entry INTEGER NOT NULL,
            reason TEXT NOT NULL,
            first_ms BIGINT NOT NULL,
            last_ms BIGINT NOT NULL,
            count INTEGER NOT NULL CHECK (count > 0),
            recorded DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (playbook, entry, first_ms, reason)
        );
        """,
        // 5: notifications, claimed once per subject and event (as the SQLite state's migration 12).
        """
        CREATE TABLE IF NOT EXISTS notifications (
            subject TEXT NOT NULL,
            event TEXT NOT NULL,
            playbook TEXT NOT NULL,
            run_id TEXT,
            claimed DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (subject, event)
        );
        CREATE INDEX IF NOT EXISTS notifications_by_run ON notifications (run_id) WHERE run_id IS NOT NULL;
        """,
        // 6: retention by age and count, indexes for the runs list (as the SQLite state's migration
        // 13, see RetentionMigration there): `keep_until` of a run whose playbook has its own
        // `retention.days`; `run_counts` of each playbook, kept by statement triggers; an index for
        // each filter of the runs list, ending with (started, seq) as the list is ordered; the ids
        // in byte order, for a prefix's range.
        """
        ALTER TABLE runs ADD COLUMN IF NOT EXISTS keep_until DOUBLE PRECISION;
        CREATE INDEX IF NOT EXISTS runs_by_keep_until ON runs (keep_until) WHERE keep_until IS NOT NULL;
        CREATE INDEX IF NOT EXISTS runs_by_age ON runs (started, seq) WHERE keep_until IS NULL;
        CREATE INDEX IF NOT EXISTS runs_by_playbook_started ON runs (playbook, started, seq);
        CREATE INDEX IF NOT EXISTS runs_by_status_started ON runs (status, started, seq);
        CREATE INDEX IF NOT EXISTS runs_by_trigger ON runs (trigger, started, seq);
        CREATE INDEX IF NOT EXISTS runs_by_id_bytes ON runs (id COLLATE "C");
        CREATE TABLE IF NOT EXISTS run_counts (playbook TEXT PRIMARY KEY, runs BIGINT NOT NULL);
        INSERT INTO run_counts (playbook, runs) SELECT playbook, count(*) FROM runs GROUP BY playbook
            ON CONFLICT (playbook) DO UPDATE SET runs = EXCLUDED.runs;
        CREATE OR REPLACE FUNCTION skillbook_count_inserted_runs() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO run_counts (playbook, runs) SELECT playbook, count(*) FROM inserted GROUP BY playbook ORDER BY playbook
                ON CONFLICT (playbook) DO UPDATE SET runs = run_counts.runs + EXCLUDED.runs;
            RETURN NULL;
        END $$;
        CREATE OR REPLACE FUNCTION skillbook_count_deleted_runs() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE run_counts SET runs = run_counts.runs - gone.n
                FROM (SELECT playbook, count(*) AS n FROM deleted GROUP BY playbook) AS gone
                WHERE run_counts.playbook = gone.playbook;
            RETURN NULL;
        END $$;
        DROP TRIGGER IF EXISTS run_counts_inserted ON runs;
        CREATE TRIGGER run_counts_inserted AFTER INSERT ON runs REFERENCING NEW TABLE AS inserted
            FOR EACH STATEMENT EXECUTE FUNCTION skillbook_count_inserted_runs();
        DROP TRIGGER IF EXISTS run_counts_deleted ON runs;
        CREATE TRIGGER run_counts_deleted AFTER DELETE ON runs REFERENCING OLD TABLE AS deleted
            FOR EACH STATEMENT EXECUTE FUNCTION skillbook_count_deleted_runs();
        """,
        // 7: who started each session (the run's trigger; for a resume or rollback, where it was asked: cli, console).
        "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS trigger TEXT;",
        // 8: a run's calls in order of starting, a page at a time (SQLite reads them by its calls index).
        "CREATE INDEX IF NOT EXISTS calls_by_run_id ON calls (run, id);",
        // 9: the rows of a run keyed by its insertion order, so pruning deletes ranges (as the SQLite state's migration 15).
        PostgresRunSeq.migration,
        // 10: long texts kept once, shared by the rows and runs that hold them (as the SQLite state's
        // BlobsMigration; see JournalBlobs): `blobs` by SHA-256, `run_blobs` which runs refer to which.
        """
        CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, size BIGINT NOT NULL, content TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS run_blobs (run TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (run, hash));
        CREATE INDEX IF NOT EXISTS run_blobs_by_hash ON run_blobs (hash);
        """,
    ]

    /// The schema version this build writes.
    static var version: Int { migrations.count }

    /// Any advisory-lock key will do as long as every skillbook process uses the same one.
    private static let lockKey = 0x736b_6c62_6b00  // "sklbk"

    static let versionQuery = "SELECT coalesce(max(version), 0) AS v FROM skillbook_schema"

    /// Brings the schema up to date in one transaction, serialised across processes by an
    /// advisory lock; refuses a database migrated by a newer skillbook. A schema already up to date
    /// (every process's start but the first after an upgrade) costs one read and no lock.
    static func migrate(_ connection: PostgresConnection) throws(PostgresError) {
        let operation = "migrating the schema"
        // No table yet (or any other failure) takes the locked path, which creates it or reports why.
        if let stored = try? connection.query(versionQuery, doing: operation).rows.first?.int("v") {
            if stored == version { return }
            if stored > version { throw newerSchema(stored, at: connection.location) }
        }
        try connection.query("BEGIN", doing: operation)
        do throws(PostgresError) {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)], doing: operation)
            try connection.query(
                "CREATE TABLE IF NOT EXISTS skillbook_schema (version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)",
                doing: operation)
            let current = try connection.query(versionQuery, doing: operation).rows.first?.int("v") ?? 0
            guard current <= version else { throw newerSchema(current, at: connection.location) }
            for step in current..<version {
                try connection.execute(script: migrations[step], doing: "\(operation) to version \(step + 1)")
                try connection.query(
                    "INSERT INTO skillbook_schema (version, applied) VALUES ($1, $2)",
                    [.integer(step + 1), .real(Date().timeIntervalSince1970)], doing: operation)
            }
            try connection.query("COMMIT", doing: operation)
        } catch {
            _ = try? connection.query("ROLLBACK", doing: operation)
            throw error
        }
    }

    private static func newerSchema(_ stored: Int, at location: PostgresURL) -> PostgresError {
        PostgresError(
            .newerSchema,
            message: "state database \(location) has schema version \(stored), newer than this skillbook's \(version); upgrade skillbook")
    }
}
