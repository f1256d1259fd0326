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
        // Who started each session (the run's trigger; for a resume or rollback, where it was asked: cli, console).
        "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS trigger TEXT;",
    ]

    /// The schema version this build writes.
    static var version: Int { migrations.count }

    /// Any advisory-lock key will do as long as every skillbook process uses the same one.
    private static let lockKey = 0x736b_6c62_6b00  // "sklbk"

    /// Brings the schema up to date in one transaction, serialised across processes by an
    /// advisory lock; refuses a database migrated by a newer skillbook.
    static func migrate(_ connection: PostgresConnection) throws(PostgresError) {
        let operation = "migrating the schema"
        try connection.query("BEGIN", doing: operation)
        do throws(PostgresError) {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)], doing: operation)
            try connection.query(
                "CREATE TABLE IF NOT EXISTS skillbook_schema (version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)",
                doing: operation)
            let current = try connection.query("SELECT coalesce(max(version), 0) AS v FROM skillbook_schema", doing: operation)
                .rows.first?.int("v") ?? 0
            guard current <= version else {
                throw PostgresError(
                    .newerSchema,
                    message: "state database \(connection.location) has schema version \(current), newer than this "
                        + "skillbook's \(version); upgrade skillbook")
            }
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
}
