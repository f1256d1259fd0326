import SkillbookCore

/// A dotted path to a field of an object (`size`, `owner.login`), shared by the data skills.
///
/// Each name steps into an object; a path that meets something other than an object, or a name the
/// object does not have, finds nothing (which is not the same as a field holding `null`). Names are
/// taken as written: there is no array indexing and no escaping of dots.
struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    let names: [String]
    let description: String

    /// The schema `pattern` of a path: names without dots, joined by single dots.
    static let pattern = #"^[^.]+(\.[^.]+)*$"#

    /// `nil` when `text` is empty or has an empty name (`a..b`, `.a`, `a.`).
    init?(_ text: String) {
        let names = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !names.contains(where: \.isEmpty) else { return nil }
        self.names = names
        self.description = text
    }

    /// The path in `text`, or an error naming `parameter` that says how to write one.
    static func parse(_ text: String, parameter: String) throws(SkillError) -> FieldPath {
        guard let path = FieldPath(text) else {
            throw SkillError(
                "\(parameter) '\(text)' is not a field path; write a field name, or names joined by dots "
                    + "for nested fields (owner.login)")
        }
        return path
    }

    /// The value at this path inside `value`; `nil` when there is none.
    func lookup(in value: Value) -> Value? {
        var current = value
        for name in names {
            guard case .object(let object) = current, let next = object[name] else { return nil }
            current = next
        }
        return current
    }
}

/// The total order the data skills use to sort and compare values of any type:
/// missing and `null` < booleans (false < true) < numbers < strings < arrays < objects.
///
/// Numbers compare by value whatever their representation (`2` == `2.0`), NaN below every other
/// number; strings compare by their Unicode scalars (canonically equivalent texts are equal, and
/// `B` < `a`); arrays and objects rank by type
/// alone (they are equal to each other, so a stable sort keeps their order).
enum ValueOrder {
    static func rank(_ value: Value?) -> Int {
        switch value {
        case nil, .null?: 0
        case .bool?: 1
        case .int?, .double?: 2
        case .string?: 3
        case .array?: 4
        case .object?: 5
        }
    }

    /// Whether `a` sorts before `b`.
    static func precedes(_ a: Value?, _ b: Value?) -> Bool {
        compare(a, b) < 0
    }

    /// -1, 0 or 1 as `a` sorts before, with or after `b`.
    static func compare(_ a: Value?, _ b: Value?) -> Int {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.bool(let x)?, .bool(let y)?):
            return x == y ? 0 : (!x ? -1 : 1)
        case (.string(let x)?, .string(let y)?):
            return sign(x < y, y < x)
        case (let x?, let y?) where ra == 2:
            return compareNumbers(x, y)
        default:
            return 0
        }
    }

    /// -1, 0 or 1 for two numbers; NaN is below every other number and equal to itself.
    static func compareNumbers(_ a: Value, _ b: Value) -> Int {
        if case .int(let x) = a, case .int(let y) = b { return sign(x < y, y < x) }
        guard let x = a.doubleValue, let y = b.doubleValue else { return 0 }
        switch (x.isNaN, y.isNaN) {
        case (true, true): return 0
        case (true, false): return -1
        case (false, true): return 1
        case (false, false): return sign(x < y, y < x)
        }
    }

    private static func sign(_ less: Bool, _ greater: Bool) -> Int {
        less ? -1 : (greater ? 1 : 0)
    }
}
