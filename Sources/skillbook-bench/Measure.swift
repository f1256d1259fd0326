import Foundation

/// Timing with `ContinuousClock`: warm-up runs, then the best of several measured runs.
///
/// The best run is reported (not the mean): on a shared machine other work only ever slows a run
/// down, so the fastest one is the closest to the code's own cost. With `--cpu` the process's CPU
/// time is measured instead of elapsed time: steadier when other processes crowd the cores, but it
/// leaves out time spent waiting (for a thread to wake up, say).
enum Measure {
    static let processorTime = CommandLine.arguments.contains("--cpu")

    /// Seconds of the fastest of `runs` calls of `body`, after `warmUp` unmeasured calls.
    static func best(runs: Int, warmUp: Int = 1, _ body: () async throws -> Void) async rethrows -> Double {
        for _ in 0..<warmUp { try await body() }
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0..<runs {
            let seconds: Double
            if processorTime {
                let start = processSeconds()
                try await body()
                seconds = processSeconds() - start
            } else {
                seconds = try await clock.measure { try await body() }.seconds
            }
            best = min(best, seconds)
        }
        return best
    }

    /// CPU time used by the whole process so far.
    static func processSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

/// One result line: `name value unit`.
struct Figure {
    var name: String
    var value: Double
    var unit: String

    var line: String {
        let rounded = (value * 10).rounded() / 10
        return "\(name) \(rounded) \(unit)"
    }
}

/// A benchmark failed to set up or produced a wrong result.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
