/// Migration 9 of `skillbook.sqlite`: a call's result is stored once.
///
/// A call whose start and result are written together (a group-committed query) keeps its result
/// in its own `calls` row, as before. A call whose start was written on its own (an action, whose
/// start is on disk before it runs, or a query whose start a group commit took) gets its result as
/// a row of `call_results`, inserted once when the call returns: adding it to the `calls` row would
/// make SQLite write that row again whole, parameters included (a 30 MB parameter twice in the
/// file). `seq` numbers a run's calls in the order they finished, across both tables.
///
/// `call_attempts` reads every attempt with its result, wherever it is stored; rows written before
/// this migration are read unchanged.
enum CallResultsMigration {
    static let sql = """
        CREATE TABLE call_results (
            call INTEGER PRIMARY KEY NOT NULL REFERENCES calls (id) ON DELETE CASCADE,
            run TEXT NOT NULL,
            seq INTEGER NOT NULL,
            output TEXT,
            error TEXT,
            finished REAL NOT NULL,
            masked INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX call_results_by_run ON call_results (run, seq);
        CREATE VIEW call_attempts AS
        SELECT c.id, c.run, c.step, c.iteration, c.batch, c.skill, c.attempt, c.parameters, c.started, c.compensated,
            CASE WHEN r.call IS NULL THEN c.output ELSE r.output END AS output,
            CASE WHEN r.call IS NULL THEN c.error ELSE r.error END AS error,
            CASE WHEN r.call IS NULL THEN c.finished ELSE r.finished END AS finished,
            CASE WHEN r.call IS NULL THEN c.masked ELSE r.masked END AS masked,
            CASE WHEN r.call IS NULL THEN c.seq ELSE r.seq END AS seq
        FROM calls c LEFT JOIN call_results r ON r.call = c.id;
        """
}
