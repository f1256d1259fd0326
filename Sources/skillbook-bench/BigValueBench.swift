import Foundation

/// `big_value`: a real `skillbook run` (the release binary next to the bench, or `SKILLBOOK_BIN`)
/// of two steps that pass one 30 MB text along: `files.read` of a 30 MB file, then `files.write` of
/// its content to another file. Prints the run's wall time (`big_value_ms`), its peak RSS
/// (`big_value_rss`; target ≤ 3× the value plus a constant) and how much the state folder grew
/// (`big_value_journal`: the database with its WAL, from an empty state folder), after a warm-up
/// run on another state folder.
struct BigValueBench {
    var state: URL
    var megabytes = 30

    func run() throws -> [Figure] {
        let skillbook = try ColdStartBench.skillbookBinary()
        let work = state.appendingPathComponent("big-value")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // Printable text, so it stays a string of the same length through JSON.
        let line = String(repeating: "0123456789abcdef", count: 4) + "\n"
        let text = String(repeating: line, count: megabytes * 1_000_000 / line.utf8.count)
        try Data(text.utf8).write(to: work.appendingPathComponent("big.txt"))
        try Data(
            """
            name: big-value
            description: Passes one large text from one step to the next.
            steps:
              - id: read
                skill: files.read
                with: { path: big.txt, max_bytes: 67108864 }
              - id: write
                skill: files.write
                with: { path: copy.txt, content: "${{ steps.read.output.content }}", mode: overwrite }

            """.utf8
        ).write(to: work.appendingPathComponent("big-value.yaml"))
        let previous = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(work.path) else {
            throw BenchError("big_value: cannot enter \(work.path)")
        }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        func arguments(state: String) -> [String] {
            [skillbook, "run", work.appendingPathComponent("big-value.yaml").path, "--state", work.appendingPathComponent(state).path]
        }
        // The first run warms the page cache; on Linux it also gives the peak RSS, the process's own
        // (see `ColdStartBench.ownPeakKilobytes`), where `wait4`'s would count the bench's pages too.
        let ownPeak = try ColdStartBench.ownPeakKilobytes(arguments(state: "warm-up"))
        // The measured run starts on an empty state folder: what it holds afterwards is the journal's growth.
        let (seconds, waitedPeak) = try ColdStartBench.spawn(arguments(state: "state"))
        let kilobytes = ownPeak ?? waitedPeak
        let grown = Self.size(of: work.appendingPathComponent("state"))
        let copy = try Data(contentsOf: work.appendingPathComponent("copy.txt"))
        guard copy.count == text.utf8.count else {
            throw BenchError("big_value: the copy has \(copy.count) bytes, not \(text.utf8.count)")
        }
        return [
            Figure(name: "big_value_ms", value: seconds * 1000, unit: "ms"),
            Figure(name: "big_value_rss", value: Double(kilobytes) / 1024, unit: "MB"),
            Figure(name: "big_value_journal", value: Double(grown) / 1_000_000, unit: "MB"),
        ]
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
