import Foundation
import SkillbookCore
import SkillbookTesting

/// `skillbook-bench history`: what reading the history costs as it grows, on journals of 1k, 10k,
/// 100k and 1M runs the bench makes itself (see `HistoryJournal`), on SQLite and then on the
/// throw-away PostgreSQL cluster (`history_pg_…`). `SKILLBOOK_BENCH_HISTORY_MAX` caps the sizes
/// (say 100000 for a quicker pass), `SKILLBOOK_BENCH_HISTORY_PG_MAX` PostgreSQL's alone (0: SQLite
/// only), `SKILLBOOK_BENCH_HISTORY_SQLITE_MAX` SQLite's alone (0: PostgreSQL only). `SKILLBOOK_BENCH_HISTORY_BIG_ONLY=N` measures only the run of 100,000 calls, in otherwise
/// empty journals, each of its processes N times (a figure per time): seconds rather than minutes.
/// `SKILLBOOK_BENCH_HISTORY_PRUNE_ONLY=1` fills the journals and prints only the pruning figures;
/// `SKILLBOOK_BENCH_HISTORY_SQLITE_FILLED=DIR` keeps a copy of the filled SQLite state in DIR (made
/// on the first pass) and starts each later pass from a copy of it instead of filling again.
///
/// At each size N (`…_<N>_…`, as `1k`, `1m`):
/// - `history_<db>_<N>_runs_ms`: `skillbook runs` (the newest 20), a whole release process;
/// - `history_<db>_<N>_show_prefix_ms`: `skillbook runs show PREFIX` of an 8-character prefix;
/// - `history_<db>_<N>_outcomes_ms`: one playbook's last 20 outcomes (the console's strips), in process;
/// - `history_<db>_<N>_doctor_journal_us`: what `doctor`'s journal check reads (how many runs, the
///   oldest start), in process;
/// - `history_<db>_<N>_console_page_ms`, `…_console_page_100_ms`: the console's runs page (50 rows),
///   the first and the one 100 pages deep (by the cursor of the page before), in process, as its API reads it.
/// At the largest size: `history_<db>_prune_<k>_ms` prunes the oldest k runs by age, k = 1k, 10k,
/// 100k (each with its calls, step ends and sessions), through a connection opened as `skillbook
/// runs prune` opens it (not the fill's, whose page cache is large); `history_<db>_prune_batch_ms`
/// one background pass (`pruneBatch`, 200 runs, best of 5); with `--cpu` these are the bench's CPU
/// time (PostgreSQL's own work is not in it). Then a run of 100,000 calls is added:
/// `history_<db>_big_show_ms`/`_mb`, `history_<db>_big_json_ms`/`_mb` (`runs show`, `--json`) and
/// `history_<db>_big_preview_ms`/`_mb` (`rollback` of it without `--yes` and no terminal: the
/// preview, then the refusal), each a release process, its wall time and peak RSS.
struct HistoryBench {
    var state: URL
    var sizes = [1_000, 10_000, 100_000, 1_000_000]
    var bigRunCalls = 100_000

    /// Prints each figure as soon as it is measured (a pass at a million runs takes minutes), so it
    /// returns none.
    func run() async throws -> [Figure] {
        let environment = ProcessInfo.processInfo.environment
        let cap = environment["SKILLBOOK_BENCH_HISTORY_MAX"].flatMap(Int.init) ?? Int.max
        let pgCap = min(cap, environment["SKILLBOOK_BENCH_HISTORY_PG_MAX"].flatMap(Int.init) ?? Int.max)
        let bigOnly = environment["SKILLBOOK_BENCH_HISTORY_BIG_ONLY"].flatMap(Int.init)
        let sizes = bigOnly == nil ? self.sizes : []
        let repeats = max(bigOnly ?? 1, 1)
        let skillbook = try ColdStartBench.skillbookBinary()
        let work = state.appendingPathComponent("history")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let pruneOnly = environment["SKILLBOOK_BENCH_HISTORY_PRUNE_ONLY"] == "1"
        let sqliteCap = min(cap, environment["SKILLBOOK_BENCH_HISTORY_SQLITE_MAX"].flatMap(Int.init) ?? Int.max)
        let sqliteSizes = sizes.filter { $0 <= sqliteCap }
        let filled = environment["SKILLBOOK_BENCH_HISTORY_SQLITE_FILLED"].map { URL(fileURLWithPath: $0) }
        if bigOnly == nil ? !sqliteSizes.isEmpty : sqliteCap > 0 {
            let sqlite = try SQLiteHistoryJournal(
                folder: work.appendingPathComponent("state"), filledCopy: filled, runs: sqliteSizes.last ?? 0)
            try await measure(sqlite, name: "sqlite", sizes: sqliteSizes, repeats: repeats, skillbook: skillbook, work: work, pruneOnly: pruneOnly)
        }
        let pgSizes = sizes.filter { $0 <= pgCap }
        if bigOnly == nil ? !pgSizes.isEmpty : pgCap > 0 {
            let postgres = try PostgresHistoryJournal(connection: PostgresCluster.shared.makeDatabase())
            try await measure(postgres, name: "pg", sizes: pgSizes, repeats: repeats, skillbook: skillbook, work: work, pruneOnly: pruneOnly)
        }
        return []
    }

    static func label(_ size: Int) -> String {
        size >= 1_000_000 ? "\(size / 1_000_000)m" : size >= 1000 ? "\(size / 1000)k" : "\(size)"
    }

    private func measure(
        _ store: any HistoryJournal, name: String, sizes: [Int], repeats: Int, skillbook: String, work: URL, pruneOnly: Bool
    ) async throws {
        func emit(_ figure: Figure) {
            // Unbuffered: each line shows as soon as it is measured.
            FileHandle.standardOutput.write(Data((figure.line + "\n").utf8))
        }
        let total = sizes.last ?? 0
        // A state restored from a kept copy has its runs already, from its own first start on.
        let restored = try store.restoredBase()
        let base = restored ?? Date().timeIntervalSince1970 - Double(total) - 86_400
        var have = restored == nil ? 0 : total
        let clock = ContinuousClock()
        // From a kept copy, only the largest size is there to read.
        for size in restored == nil ? sizes : [total] where size > have || !pruneOnly {
            if size > have {
                let fill = try clock.measure { try store.addRuns(from: have, to: size, base: base) }.seconds
                have = size
                emit(Figure(name: "history_\(name)_\(Self.label(size))_fill_s", value: fill, unit: "s"))
            }
            if pruneOnly { continue }
            let label = "history_\(name)_\(Self.label(size))"
            let prefix = String(try store.someRunID().prefix(8))
            let cli = { (arguments: [String]) throws -> Double in
                try Self.bestProcess([skillbook] + arguments + ["--state", store.state], in: work)
            }
            let journal = store.journal
            let step = [
                Figure(name: "\(label)_runs_ms", value: try cli(["runs"]) * 1000, unit: "ms"),
                Figure(name: "\(label)_show_prefix_ms", value: try cli(["runs", "show", prefix]) * 1000, unit: "ms"),
                Figure(
                    name: "\(label)_outcomes_ms",
                    value: try await Measure.best(runs: 5) { _ = try await journal.runs(playbook: "p7", status: nil, limit: 20) } * 1000,
                    unit: "ms"),
                Figure(
                    name: "\(label)_doctor_journal_us",
                    value: try await Measure.best(runs: 5) {
                        _ = try await journal.runCount()
                        _ = try await journal.oldestRunStart()
                    } * 1_000_000, unit: "µs"),
                Figure(
                    name: "\(label)_console_page_ms",
                    value: try await Measure.best(runs: 5) { try await Self.consolePage(journal, after: nil) } * 1000, unit: "ms"),
            ]
            step.forEach(emit)
            let deep = try await Self.cursor(journal, depth: 100)
            emit(
                Figure(
                    name: "\(label)_console_page_100_ms",
                    value: try await Measure.best(runs: 5) { try await Self.consolePage(journal, after: deep) } * 1000, unit: "ms"))
        }
        if restored == nil { try store.keepFilled() }
        // Pruning by age, oldest first: 1k, then 10k, then 100k runs (as many as there are), through
        // a journal opened as `skillbook runs prune` opens it.
        let pruning = try store.journalAsOpenedByTheHost()
        var pruned = 0
        for count in [1_000, 10_000, 100_000] where pruned + count <= total / 2 {
            let cutoff = Date(timeIntervalSince1970: base + Double(pruned + count))
            var deleted = 0
            let seconds = try await Self.time { deleted = try await pruning.prune(olderThan: cutoff, keepingNewest: nil) }
            guard deleted == count else { throw BenchError("history: pruning \(count) runs deleted \(deleted)") }
            pruned += count
            let figure = Figure(name: "history_\(name)_prune_\(Self.label(count))_ms", value: seconds * 1000, unit: "ms")
            emit(figure)
        }
        // One background pass (`pruneBatch`, what each run does after it ends): 200 runs past their time.
        var batch = Double.infinity
        for _ in 0..<5 where pruned + JournalRetention.batch <= total / 2 {
            pruned += JournalRetention.batch
            let rules = RetentionRules(workspace: RetentionPolicy(days: 0, maxRuns: Int.max / 2))
            let now = Date(timeIntervalSince1970: base + Double(pruned))
            var deleted = 0
            let seconds = try await Self.time {
                deleted = try await pruning.pruneBatch(rules, now: now, limit: JournalRetention.batch)
            }
            guard deleted == JournalRetention.batch else { throw BenchError("history: a pruning pass deleted \(deleted)") }
            batch = min(batch, seconds)
        }
        if batch.isFinite { emit(Figure(name: "history_\(name)_prune_batch_ms", value: batch * 1000, unit: "ms")) }
        if pruneOnly { return }
        // One run of 100,000 calls.
        let big = try store.addBigRun(calls: bigRunCalls, started: base + Double(total) + 10)
        let cases: [(String, [String])] = [
            ("show", ["runs", "show", big]), ("json", ["runs", "show", big, "--json"]), ("preview", ["rollback", big]),
        ]
        for (what, arguments) in cases {
            for _ in 0..<repeats {
                let full = [skillbook] + arguments + ["--state", store.state]
                let (seconds, kilobytes) = try Self.process(full, in: work)
                for figure in [
                    Figure(name: "history_\(name)_big_\(what)_ms", value: seconds * 1000, unit: "ms"),
                    Figure(name: "history_\(name)_big_\(what)_mb", value: Double(kilobytes) / 1024, unit: "MB"),
                ] {
                    emit(figure)
                }
            }
        }
    }

    /// Seconds `body` takes: elapsed, or with `--cpu` the process's CPU time.
    static func time(_ body: () async throws -> Void) async rethrows -> Double {
        if Measure.processorTime {
            let start = Measure.processSeconds()
            try await body()
            return Measure.processSeconds() - start
        }
        return try await ContinuousClock().measure { try await body() }.seconds
    }

    /// The console's runs page (50 rows) after `cursor`, as `ConsoleAPI` reads it.
    static func consolePage(_ journal: any RunJournal, after cursor: RunCursor?) async throws {
        _ = try await journal.runs(RunFilter(), after: cursor, limit: 50)
    }

    /// The cursor of the page `depth` pages deep, paging as the console's Runs page does.
    static func cursor(_ journal: any RunJournal, depth: Int) async throws -> RunCursor? {
        var cursor: RunCursor?
        for _ in 0..<depth { cursor = try await journal.runs(RunFilter(), after: cursor, limit: 50).next }
        return cursor
    }

    /// Seconds of the fastest of three runs of a process (after one to warm up), in `folder`: its
    /// wall time, or with `--cpu` its CPU time (steadier on a crowded machine).
    static func bestProcess(_ arguments: [String], in folder: URL) throws -> Double {
        var best = Double.infinity
        for index in 0..<4 {
            let seconds = try process(arguments, in: folder).seconds
            if index > 0 { best = min(best, seconds) }
        }
        return best
    }

    /// One run of a process in `folder`: its wall time (with `--cpu` its CPU time) and its own peak
    /// RSS (KiB). A rollback preview ends refused (exit code 2), as it must without a terminal.
    static func process(_ arguments: [String], in folder: URL) throws -> (seconds: Double, kilobytes: Int) {
        let previous = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(folder.path) else { throw BenchError("history: cannot enter \(folder.path)") }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let accepted: (Int32) -> Bool = { status in status == 0 || (status >> 8) & 0xff == 2 }
        let usage = try ColdStartBench.spawnUsage(arguments, accepting: accepted)
        let own = try ColdStartBench.ownPeakKilobytes(arguments, accepting: accepted)
        return (Measure.processorTime ? usage.cpu : usage.seconds, own ?? usage.kilobytes)
    }
}
