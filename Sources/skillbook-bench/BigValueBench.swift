import Foundation
import SkillbookPostgres
import SkillbookSQL
import SkillbookSQLite
import SkillbookTesting

/// `big_value`: real `skillbook run`s (the release binary next to the bench, or `SKILLBOOK_BIN`)
/// that pass one large text from step to step. `files.read` reads a file of printable text, then
///
/// - `write`: `files.write` writes its content to another file;
/// - `template`: `text.template` puts a header and a footer around it (`{{body}}`) and
///   `files.write` writes the result.
///
/// For each, with a 50 MB value: the run's wall time (`big_value_write_50mb_ms`, …) and its peak
/// RSS (`…_rss`; target ≤ 2× the value + 20 MB). For the `template` chain with 1 MB and 50 MB: how
/// much the state holds after a first run on an empty state (`big_value_journal_1mb`: the SQLite
/// state folder once its WAL is copied back into the database and emptied, so each page counts
/// once) and how much a second run of the same value on that state adds
/// (`big_value_journal_1mb_again`; the journal's blobs are shared, so about nothing). The same
/// on PostgreSQL (`big_value_pg_…`, a throw-away cluster as in the tests; the growth is
/// `pg_database_size`'s). Each process figure follows a warm-up run.
struct BigValueBench {
    var state: URL

    static let writePlaybook = """
        name: big-write
        description: Passes one large text from one step to the next.
        steps:
          - id: read
            skill: files.read
            with: { path: big.txt, max_bytes: 67108864 }
          - id: write
            skill: files.write
            with: { path: copy.txt, content: "${{ steps.read.output.content }}", mode: overwrite }

        """

    static let templatePlaybook = """
        name: big-template
        description: Fills a template with one large text and writes the result.
        steps:
          - id: read
            skill: files.read
            with: { path: big.txt, max_bytes: 67108864 }
          - id: fill
            skill: text.template
            with:
              template: "begin\\n{{body}}end\\n"
              values: { body: "${{ steps.read.output.content }}" }
          - id: write
            skill: files.write
            with: { path: copy.txt, content: "${{ steps.fill.output.text }}", mode: overwrite }

        """

    func run() throws -> [Figure] {
        let skillbook = try ColdStartBench.skillbookBinary()
        let work = state.appendingPathComponent("big-value")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Data(Self.writePlaybook.utf8).write(to: work.appendingPathComponent("big-write.yaml"))
        try Data(Self.templatePlaybook.utf8).write(to: work.appendingPathComponent("big-template.yaml"))
        let previous = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(work.path) else {
            throw BenchError("big_value: cannot enter \(work.path)")
        }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let context = Context(skillbook: skillbook, work: work)
        // Each line as soon as it is measured: the 50 MB runs take seconds each.
        func emit(_ figure: Figure) { FileHandle.standardOutput.write(Data((figure.line + "\n").utf8)) }

        try context.writeValue(megabytes: 50)
        for chain in ["write", "template"] {
            let (milliseconds, megabytes) = try context.measuredRun(chain, state: work.appendingPathComponent("rss-\(chain)").path)
            emit(Figure(name: "big_value_\(chain)_50mb_ms", value: milliseconds, unit: "ms"))
            emit(Figure(name: "big_value_\(chain)_50mb_rss", value: megabytes, unit: "MB"))
        }
        for size in [1, 50] {
            try context.writeValue(megabytes: size)
            let folder = work.appendingPathComponent("journal-\(size)")
            try context.plainRun("template", state: folder.path)
            let first = try Self.storedSize(of: folder)
            try context.plainRun("template", state: folder.path)
            emit(Figure(name: "big_value_journal_\(size)mb", value: Double(first) / 1_000_000, unit: "MB"))
            emit(Figure(name: "big_value_journal_\(size)mb_again", value: Double(try Self.storedSize(of: folder) - first) / 1_000_000, unit: "MB"))
        }
        for figure in try postgres(context) { emit(figure) }
        return []
    }

    /// The `template` chain on PostgreSQL: 50 MB's time and peak RSS, and the journal's growth by 1 MB.
    private func postgres(_ context: Context) throws -> [Figure] {
        let url = try PostgresCluster.shared.makeDatabase()
        guard let parsed = PostgresURL(url) else { throw BenchError("big_value: cannot read the cluster's URL \(url)") }
        let database = try PostgresDatabase(parsed)
        func databaseSize() throws -> Int {
            try database.query("SELECT pg_database_size(current_database()) AS n").first?.int("n") ?? 0
        }
        try context.writeValue(megabytes: 50)
        let (milliseconds, megabytes) = try context.measuredRun("template", state: url)
        try context.writeValue(megabytes: 1)
        let before = try databaseSize()
        try context.plainRun("template", state: url)
        let first = try databaseSize()
        try context.plainRun("template", state: url)
        let again = try databaseSize()
        return [
            Figure(name: "big_value_pg_template_50mb_ms", value: milliseconds, unit: "ms"),
            Figure(name: "big_value_pg_template_50mb_rss", value: megabytes, unit: "MB"),
            Figure(name: "big_value_pg_journal_1mb", value: Double(first - before) / 1_000_000, unit: "MB"),
            Figure(name: "big_value_pg_journal_1mb_again", value: Double(again - first) / 1_000_000, unit: "MB"),
        ]
    }

    private struct Context {
        var skillbook: String
        var work: URL

        /// `big.txt` of `megabytes` MB of printable text, so it stays a string of the same length through JSON.
        func writeValue(megabytes: Int) throws {
            let line = String(repeating: "0123456789abcdef", count: 4) + "\n"
            let text = String(repeating: line, count: megabytes * 1_000_000 / line.utf8.count)
            try Data(text.utf8).write(to: work.appendingPathComponent("big.txt"))
        }

        func arguments(_ chain: String, state: String) -> [String] {
            [skillbook, "run", work.appendingPathComponent("big-\(chain).yaml").path, "--state", state]
        }

        /// A warm-up run, then a measured one: milliseconds and the peak RSS in MB. On Linux the
        /// peak is the process's own (see `ColdStartBench.ownPeakKilobytes`), where `wait4`'s
        /// would count the bench's pages too.
        func measuredRun(_ chain: String, state: String) throws -> (milliseconds: Double, megabytes: Double) {
            let ownPeak = try ColdStartBench.ownPeakKilobytes(arguments(chain, state: state))
            let (seconds, waitedPeak) = try ColdStartBench.spawn(arguments(chain, state: state))
            try checkCopy()
            return (seconds * 1000, Double(ownPeak ?? waitedPeak) / 1024)
        }

        func plainRun(_ chain: String, state: String) throws {
            _ = try ColdStartBench.spawn(arguments(chain, state: state))
            try checkCopy()
        }

        /// The copy holds the value (with the template's 10 bytes around it).
        func checkCopy() throws {
            let original = try FileManager.default.attributesOfItem(atPath: work.appendingPathComponent("big.txt").path)[.size] as? Int ?? 0
            let copy = try FileManager.default.attributesOfItem(atPath: work.appendingPathComponent("copy.txt").path)[.size] as? Int ?? 0
            guard copy == original || copy == original + 10 else {
                throw BenchError("big_value: the copy has \(copy) bytes, not \(original)")
            }
        }
    }

    /// Bytes of the state folder `folder` once its WAL is copied back and emptied (the schema left
    /// as it is, so that an older `skillbook` can be measured too).
    static func storedSize(of folder: URL) throws -> Int {
        try Database(url: StateDatabase.url(in: folder)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return size(of: folder)
    }

    /// Bytes of the regular files directly in `folder` (the database, its WAL and shared memory).
    static func size(of folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
