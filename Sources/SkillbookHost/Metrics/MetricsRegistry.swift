import Foundation
import Synchronization

/// Counters, gauges and histograms of one process, with labels, written out in the Prometheus text
/// exposition format (version 0.0.4) for `--metrics ADDR`. Families are declared once (name, help,
/// kind, label names); a sample is a family and label values. Safe to use from any thread.
public final class MetricsRegistry: Sendable {
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// A family of samples: one metric name with its help and label names.
    public struct Family: Sendable, Hashable {
        public var name: String
        public var help: String
        public var kind: Kind
        public var labels: [String]
        /// Upper bounds of the buckets of a histogram, in seconds (ascending; `+Inf` is added).
        public var buckets: [Double]

        public init(_ name: String, _ kind: Kind, help: String, labels: [String] = [], buckets: [Double] = []) {
            self.name = name
            self.help = help
            self.kind = kind
            self.labels = labels
            self.buckets = buckets
        }
    }

    private struct Histogram {
        var counts: [Int]
        var sum = 0.0
        var count = 0
    }

    private struct State {
        var order: [Family] = []
        var values: [String: [[String]: Double]] = [:]
        var histograms: [String: [[String]: Histogram]] = [:]
        var readers: [String: @Sendable () async -> [([String], Double)]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Declares `family` (again is fine: the first declaration stays).
    public func declare(_ family: Family) {
        state.withLock { state in
            guard !state.order.contains(where: { $0.name == family.name }) else { return }
            state.order.append(family)
        }
    }

    /// Adds `amount` to a counter (or gauge) sample.
    public func add(_ family: Family, _ labels: [String] = [], _ amount: Double = 1) {
        declare(family)
        state.withLock { $0.values[family.name, default: [:]][labels, default: 0] += amount }
    }

    /// Sets a gauge sample.
    public func set(_ family: Family, _ labels: [String] = [], _ value: Double) {
        declare(family)
        state.withLock { $0.values[family.name, default: [:]][labels] = value }
    }

    /// Records one observation of a histogram.
    public func observe(_ family: Family, _ labels: [String] = [], _ value: Double) {
        declare(family)
        state.withLock { state in
            var histogram = state.histograms[family.name]?[labels] ?? Histogram(counts: Array(repeating: 0, count: family.buckets.count))
            for (index, bound) in family.buckets.enumerated() where value <= bound { histogram.counts[index] += 1 }
            histogram.sum += value
            histogram.count += 1
            state.histograms[family.name, default: [:]][labels] = histogram
        }
    }

    /// A gauge read at each scrape (a queue's depth): `read` returns its samples, or none when it
    /// cannot tell.
    public func gauge(_ family: Family, read: @escaping @Sendable () async -> [([String], Double)]) {
        declare(family)
        state.withLock { $0.readers[family.name] = read }
    }

    /// The exposition text: each family's `# HELP` and `# TYPE`, then its samples, labels in
    /// declaration order, samples sorted by their label values.
    public func exposition() async -> String {
        let readers = state.withLock { $0.readers }
        var read: [String: [[String]: Double]] = [:]
        for (name, reader) in readers {
            for (labels, value) in await reader() { read[name, default: [:]][labels] = value }
        }
        return state.withLock { state in
            var text = ""
            for family in state.order {
                text += "# HELP \(family.name) \(Self.escapeHelp(family.help))\n# TYPE \(family.name) \(family.kind.rawValue)\n"
                if family.kind == .histogram {
                    let samples = state.histograms[family.name] ?? [:]
                    for labels in samples.keys.sorted(by: Self.ordered) {
                        let histogram = samples[labels]!
                        let pairs = Self.pairs(family.labels, labels)
                        for (index, bound) in family.buckets.enumerated() {
                            text += "\(family.name)_bucket{\(Self.join(pairs + [("le", Self.number(bound))]))} \(histogram.counts[index])\n"
                        }
                        text += "\(family.name)_bucket{\(Self.join(pairs + [("le", "+Inf")]))} \(histogram.count)\n"
                        text += "\(family.name)_sum\(Self.braces(pairs)) \(Self.number(histogram.sum))\n"
                        text += "\(family.name)_count\(Self.braces(pairs)) \(histogram.count)\n"
                    }
                } else {
                    let samples = (state.values[family.name] ?? [:]).merging(read[family.name] ?? [:]) { _, new in new }
                    for labels in samples.keys.sorted(by: Self.ordered) {
                        text += "\(family.name)\(Self.braces(Self.pairs(family.labels, labels))) \(Self.number(samples[labels]!))\n"
                    }
                }
            }
            return text
        }
    }

    private static func ordered(_ a: [String], _ b: [String]) -> Bool { a.lexicographicallyPrecedes(b) }

    private static func pairs(_ names: [String], _ values: [String]) -> [(String, String)] {
        Array(zip(names, values))
    }

    private static func braces(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "" : "{\(join(pairs))}"
    }

    private static func join(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\"\(escapeLabel($0.1))\"" }.joined(separator: ",")
    }

    /// A label value: backslash, double quote and line feed escaped.
    static func escapeLabel(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// A help text: backslash and line feed escaped.
    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A sample value: whole numbers without a fraction, others as Swift prints a Double.
    static func number(_ value: Double) -> String {
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
