public import SkillbookCore

/// A request set that measures how the matcher generalises: rows of a request, the route it must
/// take (`layer`, `target`, `inputs`) and, for a row the matcher still gets wrong, `known` (why)
/// and `got` (what it decides instead, `RoutingSet.describe`).
///
/// The rows are split into a tuning half and a held-out half by a seeded hash of the request text
/// (FNV-1a, the same in every process), so tuning the matcher on one half can be checked on the
/// other.
public struct RoutingSet: Sendable {
    public struct Row: Sendable {
        public var request: String
        public var layer: String
        public var target: String?
        public var inputs: Value
        public var known: String?
        public var got: String?
    }

    public enum Half: String, Sendable, CaseIterable {
        case tuning, heldOut = "held-out"
    }

    /// The seed of the split. Changing it reshuffles the halves, so it never changes.
    public static let seed: UInt64 = 2026

    public var rows: [Row]

    /// Rows from the JSON text of the fixture: an array of `{request, layer, target, inputs, known?, got?}`.
    public init(json text: String) throws {
        let rows = try JSONText.decode(text).arrayValue ?? []
        self.rows = rows.map { row in
            Row(
                request: row["request"]?.stringValue ?? "", layer: row["layer"]?.stringValue ?? "",
                target: row["target"]?.stringValue, inputs: row["inputs"] ?? [:], known: row["known"]?.stringValue,
                got: row["got"]?.stringValue)
        }
    }

    public static func half(of request: String) -> Half {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in request.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return (hash >> 17) & 1 == 0 ? .tuning : .heldOut
    }

    public func rows(in half: Half) -> [Row] { rows.filter { Self.half(of: $0.request) == half } }

    /// A decision as one line: `layer target {inputs}`.
    public static func describe(_ decision: RouteDecision) -> String {
        "\(decision.layer.rawValue) \(decision.target ?? "-") \(JSONText.encode(.object(decision.inputs)))"
    }

    /// How one row went.
    public struct Outcome: Sendable {
        /// Layer and target as the row says.
        public var routed: Bool
        /// Routed, and the inputs exactly as the row says.
        public var exact: Bool
        public var got: String
    }

    public static func outcome(_ row: Row, _ decision: RouteDecision) -> Outcome {
        let routed = decision.layer.rawValue == row.layer && decision.target == row.target
        return Outcome(routed: routed, exact: routed && Value.object(decision.inputs) == row.inputs, got: describe(decision))
    }

    /// The figures of one half.
    public struct Figures: Sendable {
        public var rows = 0
        /// % of rows routed to the right layer and target.
        public var top1 = 0.0
        /// % of rows with a target routed there with exactly the inputs written.
        public var slotsExact = 0.0
        /// % of rows nothing covers that were refused (layer none).
        public var uncoveredRefused = 0.0
        /// Rows not exactly right.
        public var failing = 0
    }

    public func figures(_ half: Half, _ decide: (String) -> RouteDecision) -> Figures {
        var routed = 0, targeted = 0, exactTargeted = 0, uncovered = 0, refused = 0, failing = 0
        let rows = rows(in: half)
        for row in rows {
            let decision = decide(row.request)
            let outcome = Self.outcome(row, decision)
            if outcome.routed { routed += 1 }
            if !outcome.exact { failing += 1 }
            if row.target != nil {
                targeted += 1
                if outcome.exact { exactTargeted += 1 }
            }
            if row.layer == "none" {
                uncovered += 1
                if decision.layer == .none { refused += 1 }
            }
        }
        func percent(_ a: Int, _ b: Int) -> Double { 100 * Double(a) / Double(max(b, 1)) }
        return Figures(
            rows: rows.count, top1: percent(routed, rows.count), slotsExact: percent(exactTargeted, targeted),
            uncoveredRefused: percent(refused, uncovered), failing: failing)
    }
}
