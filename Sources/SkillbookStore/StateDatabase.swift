public import Foundation

/// The shared state file `<state directory>/skillbook.sqlite` and its schema.
///
/// Every store that keeps tables in this file opens it here, so that the file has one ordered list
/// of migrations (its `user_version` counts the steps applied). Add a step at the end; never edit
/// or reorder a step that has shipped.
public enum StateDatabase {
    public static let fileName = "skillbook.sqlite"

    /// Forward migrations of `skillbook.sqlite`; step `i` takes version `i` to `i + 1`.
    static let migrations: [String] = [
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
        // reminders: `due`, `created` and `completed_at` are ISO 8601 UTC text to the second
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
    ]

    /// The schema version this build writes.
    public static var schemaVersion: Int { migrations.count }

    /// The file inside `stateDirectory`.
    public static func url(in stateDirectory: URL) -> URL {
        stateDirectory.appendingPathComponent(fileName, isDirectory: false)
    }

    /// Opens (creating when missing) the state file and brings its schema up to date.
    public static func open(stateDirectory: URL) throws(StoreError) -> Database {
        let database = try Database(url: url(in: stateDirectory))
        try database.migrate(migrations)
        return database
    }
}
