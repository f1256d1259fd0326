public import Foundation
import Synchronization
import SkillbookSQL

/// The shared state file `<state directory>/skillbook.sqlite` and its schema.
///
/// Every store that keeps tables in this file opens it here, so that the file has one ordered list
/// of migrations (its `user_version` counts the steps applied). Add a step at the end; never edit
/// or reorder a step that has shipped.
public enum StateDatabase {
    public static let fileName = "skillbook.sqlite"

    /// Forward migrations of `skillbook.sqlite`; step `i` takes version `i` to `i + 1`.
    public static let migrations: [String] = [
        // 1: notes
        """
        CREATE TABLE notes (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL DEFAULT '',
            tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
            created TEXT NOT NULL
        );
        CREATE INDEX notes_by_created ON notes (created);
        """,
        // 2: the run journal (see SQLiteJournal). Times are seconds since 1970 (REAL), values JSON text.
        """
        CREATE TABLE runs (
            id TEXT PRIMARY KEY NOT NULL,
            playbook TEXT NOT NULL,
            file TEXT,
            source TEXT NOT NULL DEFAULT '',
            source_hash TEXT NOT NULL DEFAULT '',
            inputs TEXT NOT NULL DEFAULT '{}',
            trigger TEXT NOT NULL DEFAULT 'cli',
            status TEXT NOT NULL,
            interrupted INTEGER NOT NULL DEFAULT 0,
            started REAL NOT NULL,
            finished REAL,
            pid INTEGER,
            host TEXT,
            boot TEXT,
            process_start TEXT,
            heartbeat REAL,
            error TEXT,
            outputs TEXT,
            report TEXT
        );
        CREATE INDEX runs_by_started ON runs (started);
        CREATE INDEX runs_by_playbook ON runs (playbook, started);
        CREATE INDEX runs_by_status ON runs (status);
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            started REAL NOT NULL,
            ended REAL,
            outcome TEXT
        );
        CREATE INDEX sessions_by_run ON sessions (run);
        CREATE TABLE calls (
            id INTEGER PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            iteration INTEGER,
            batch INTEGER,
            skill TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            parameters TEXT NOT NULL,
            output TEXT,
            error TEXT,
            started REAL NOT NULL,
            finished REAL,
            compensated INTEGER NOT NULL DEFAULT 0,
            seq INTEGER NOT NULL
        );
        CREATE INDEX calls_by_run ON calls (run, seq);
        CREATE TABLE steps (
            id INTEGER PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            status TEXT NOT NULL,
            output TEXT,
            error TEXT,
            finished REAL NOT NULL
        );
        CREATE INDEX steps_by_run ON steps (run);
        CREATE TABLE compensations (
            id INTEGER PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            iteration INTEGER,
            batch INTEGER,
            error TEXT,
            finished REAL NOT NULL
        );
        CREATE INDEX compensations_by_run ON compensations (run);
        """,
        // 3: reminders: `due`, `created` and `completed_at` are ISO 8601 UTC text to the second
        // (`2026-05-01T09:00:00Z`), so that comparing the text compares the instants.
        """
        CREATE TABLE reminders (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            due TEXT,
            notes TEXT NOT NULL DEFAULT '',
            done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
            created TEXT NOT NULL,
            completed_at TEXT,
            CHECK ((done = 1) = (completed_at IS NOT NULL))
        );
        CREATE INDEX reminders_by_due ON reminders (due);
        """,
        // 4: outputs are journaled with secrets masked; `masked` says the recorded output is not
        // the one later steps used, so a resume does not reuse it blindly.
        """
        ALTER TABLE calls ADD COLUMN masked INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE steps ADD COLUMN masked INTEGER NOT NULL DEFAULT 0;
        """,
        // 5: write locks on resources across processes (see SQLiteResourceLocks): who holds each
        // resource, with the holder's process and a heartbeat; and each wait for one, for the
        // timeline of `runs show`. Times are seconds since 1970.
        """
        CREATE TABLE resource_locks (
            resource TEXT PRIMARY KEY NOT NULL,
            run TEXT NOT NULL,
            step TEXT NOT NULL,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            boot TEXT,
            process_start TEXT,
            acquired REAL NOT NULL,
            heartbeat REAL NOT NULL
        );
        CREATE INDEX resource_locks_by_run ON resource_locks (run);
        CREATE TABLE resource_waits (
            id INTEGER PRIMARY KEY,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            resources TEXT NOT NULL CHECK (json_valid(resources)),
            held_by TEXT,
            started REAL NOT NULL,
            ended REAL,
            outcome TEXT
        );
        CREATE INDEX resource_waits_by_run ON resource_waits (run);
        """,
        // 6: the kind of a run's failure (see FailureKindMigration)
        FailureKindMigration.sql,
        // 7: schedules (see SQLiteFireLedger). `fires` holds every fire decided, keyed by playbook,
        // schedule entry and scheduled instant (milliseconds since 1970), so a fire starts at most
        // once whoever decides it; `schedule_entries` the planner's state of each entry (JSON), kept
        // in the transaction that claims its fires. A run started by a fire has its `scheduled_at`.
        """
        ALTER TABLE runs ADD COLUMN scheduled_at REAL;
        CREATE TABLE fires (
            playbook TEXT NOT NULL,
            entry INTEGER NOT NULL,
            scheduled_ms INTEGER NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('started', 'skipped')),
            catch_up INTEGER NOT NULL DEFAULT 0 CHECK (catch_up IN (0, 1)),
            recorded REAL NOT NULL,
            pid INTEGER,
            PRIMARY KEY (playbook, entry, scheduled_ms)
        ) WITHOUT ROWID;
        CREATE TABLE schedule_entries (
            playbook TEXT NOT NULL,
            entry INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (json_valid(state)),
            updated REAL NOT NULL,
            PRIMARY KEY (playbook, entry)
        ) WITHOUT ROWID;
        CREATE INDEX runs_by_schedule ON runs (playbook, scheduled_at) WHERE scheduled_at IS NOT NULL;
        """,
        // 8: the workspace folder a run was started in (see HostConfiguration.discover), so that
        // resume and rollback load its skills from anywhere.
        "ALTER TABLE runs ADD COLUMN workspace TEXT;",
        // 9: a call's result in a table of its own when its start was written first (see CallResultsMigration)
        CallResultsMigration.sql,
        // 10: approval requests of runs that wait at a call nobody could confirm, and their
        // decisions (see SQLiteJournal+Approvals); independent of the other tables' migrations.
        """
        CREATE TABLE IF NOT EXISTS approvals (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            step TEXT NOT NULL,
            iteration INTEGER,
            batch INTEGER,
            skill TEXT NOT NULL,
            title TEXT NOT NULL,
            parameters TEXT NOT NULL,
            touches TEXT,
            calls INTEGER NOT NULL,
            requested REAL NOT NULL,
            expires REAL NOT NULL,
            verdict TEXT CHECK (verdict IN ('approved', 'declined', 'expired')),
            decided_by TEXT,
            decided_at REAL,
            reason TEXT
        );
        CREATE INDEX IF NOT EXISTS approvals_by_run ON approvals (run, id);
        CREATE INDEX IF NOT EXISTS runs_waiting ON runs (status) WHERE status = 'waiting';
        """,
        // 11: fires that were not started, in batches with their reason (`catch_up`, `window`; a
        // fire skipped by `overlap` is a `fires` row with outcome `skipped`), for `schedule
        // history` and the `missed` notification (see SQLiteFireLedger).
        """
        CREATE TABLE IF NOT EXISTS missed_fires (
            playbook TEXT NOT NULL,
            entry INTEGER NOT NULL,
            reason TEXT NOT NULL,
            first_ms INTEGER NOT NULL,
            last_ms INTEGER NOT NULL,
            count INTEGER NOT NULL CHECK (count > 0),
            recorded REAL NOT NULL,
            PRIMARY KEY (playbook, entry, first_ms, reason)
        ) WITHOUT ROWID;
        """,
        // 12: notifications (see SQLiteNotificationLedger): one row per subject (a run id, or a batch
        // of missed fires) and event, claimed before the notification runs so it is sent once; its
        // run id once it started, to link the two runs.
        """
        CREATE TABLE IF NOT EXISTS notifications (
            subject TEXT NOT NULL,
            event TEXT NOT NULL,
            playbook TEXT NOT NULL,
            run_id TEXT,
            claimed REAL NOT NULL,
            PRIMARY KEY (subject, event)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS notifications_by_run ON notifications (run_id) WHERE run_id IS NOT NULL;
        """,
        // 13: retention by age and count, indexes for the runs list (see RetentionMigration)
        RetentionMigration.sql,
        // 14: who started each session (the run's trigger; for a resume or rollback, where it was asked: cli, console)
        "ALTER TABLE sessions ADD COLUMN trigger TEXT;",
        // 15: the rows of a run keyed by its insertion order, so pruning deletes ranges (see RunSeqMigration)
        RunSeqMigration.sql,
        // 16: long texts kept once, shared by the rows and runs that hold them (see BlobsMigration)
        BlobsMigration.sql,
        // 17: deleting runs without a statement journal, `runs_by_status` dropped (see RunDeletesMigration)
        RunDeletesMigration.sql,
    ]

    /// The schema version this build writes.
    public static var schemaVersion: Int { migrations.count }

    /// The file inside `stateDirectory`.
    public static func url(in stateDirectory: URL) -> URL {
        stateDirectory.appendingPathComponent(fileName, isDirectory: false)
    }

    /// Opens (creating when missing) the state file and brings its schema up to date.
    ///
    /// The file is opened once per process: while a `Database` for it is alive (the notes store's,
    /// the journal's), later calls return that same connection, so the stores of one process share
    /// one connection, one lock and one migration. It is closed when the last user lets go.
    public static func open(stateDirectory: URL) throws(StoreError) -> Database {
        let file = url(in: stateDirectory).standardizedFileURL
        if let database = opened.withLock({ $0[file.path]?.database }) { return database }
        // Opened and migrated outside the lock: the lock is process-wide, and holding it through
        // file I/O would stall every other thread that opens any state file (the cooperative pool
        // has one thread per core). Two threads racing for one file both open it (SQLite's own
        // locking keeps the migration single); the first to register wins, the other's is dropped.
        let database = try Database(url: file)
        try database.migrate(migrations)
        return opened.withLock { cache in
            if let winner = cache[file.path]?.database { return winner }
            cache = cache.filter { $0.value.database != nil }
            cache[file.path] = WeakDatabase(database: database)
            return database
        }
    }

    /// Opens a separate connection to the state file (not the shared one), schema up to date: for
    /// tests of several connections, as several processes would have.
    public static func openSeparately(stateDirectory: URL) throws(StoreError) -> Database {
        let database = try Database(url: url(in: stateDirectory))
        try database.migrate(migrations)
        return database
    }

    private struct WeakDatabase {
        weak var database: Database?
    }

    /// Open state files by path.
    private static let opened = Mutex<[String: WeakDatabase]>([:])
}
