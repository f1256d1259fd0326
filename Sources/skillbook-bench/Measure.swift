/// Timing with `ContinuousClock`: warm-up runs, then the best of several measured runs.
///
/// The best run is reported (not the mean): on a shared machine other work only ever slows a run
/// down, so the fastest one is the closest to the code's own cost.
enum Measure {
    /// Seconds of the fastest of `runs` calls of `body`, after `warmUp` unmeasured calls.
    static func best(runs: Int, warmUp: Int = 1, _ body: () async throws -> Void) async rethrows -> Double {
        for _ in 0..<warmUp { try await body() }
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0..<runs {
            let elapsed = try await clock.measure { try await body() }
            best = min(best, elapsed.seconds)
        }
        return best
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
