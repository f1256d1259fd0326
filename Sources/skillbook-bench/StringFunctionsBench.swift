import Foundation
import SkillbookCore

/// `string_functions`: every expression function that reads a text, on 10⁶-character texts shaped
/// to find quadratic work (`a` + a million slashes for the path functions, a near-miss needle of
/// half a million characters for the searches, a million spaces for `trim`…). Prints one figure
/// per function, `string_fn_NAME MILLISECONDS ms` (the slowest of its inputs, best of `runs`), and
/// `string_fn_slowest`; each should stay well under a second (issue 28.6: `basename` of
/// `a` + 100,000 slashes took 37.7 s). Not a test: times belong here, in a release build.
struct StringFunctionsBench {
    var size = 1_000_000
    var runs = 3

    func run() async throws -> [Figure] {
        let n = size
        let a = String(repeating: "a", count: n)
        let nearMiss = String(repeating: "a", count: n / 2) + "b"
        let slashes = "a" + String(repeating: "/", count: n)
        let spaces = String(repeating: " ", count: n) + "x" + String(repeating: " ", count: n)
        let dots = String(repeating: ".", count: n)
        let wide = String(repeating: "é好😀", count: n / 3)
        let digits = "2026-" + String(repeating: "1", count: n)
        let json = "[" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + String(repeating: ",1", count: n / 2) + "]"
        let cases: [(function: String, arguments: [[Value]])] = [
            ("length", [[.string(a)], [.string(wide)]]),
            ("split", [[.string(a), .string(nearMiss)], [.string(slashes), "/"], [.string(wide), ""]]),
            ("lower", [[.string(a)], [.string(wide)]]),
            ("upper", [[.string(a)], [.string(wide)]]),
            ("contains", [[.string(a), .string(nearMiss)], [.string(wide), "😀é好😀x"]]),
            ("replace", [[.string(a), .string(nearMiss), "x"], [.string(a), "a", "bb"], [.string(slashes), "//", "/"]]),
            ("trim", [[.string(spaces)], [.string(a)]]),
            ("starts_with", [[.string(a), .string(a + "b")], [.string(a), .string(a)]]),
            ("ends_with", [[.string(a), .string("b" + a)], [.string(a), .string(a)]]),
            ("basename", [[.string(slashes)], [.string(String(repeating: "a/", count: n / 2))], [.string(a)]]),
            ("dirname", [[.string(slashes)], [.string(String(repeating: "a/", count: n / 2))], [.string(slashes + "b" + slashes)]]),
            ("extension", [[.string(dots)], [.string(slashes)]]),
            ("first", [[.string(wide)]]),
            ("last", [[.string(wide)]]),
            ("from_json", [[.string(json)], [.string("\"" + a + "\"")]]),
            ("to_json", [[.string(wide)], [.string(String(repeating: "\u{1}\"", count: n / 2))]]),
            ("join", [[.array([.string(a), .string(a)]), .string(a)]]),
            ("date", [[.string(digits)], [.string(a)], [.string(spaces)]]),
            ("add_days", [[.string(digits), 1]]),
            ("format_date", [["2026-12-01", .string(String(repeating: "y", count: n))], [.string(a), "yyyy"]]),
        ]
        var figures: [Figure] = []
        var slowest = 0.0
        for (function, argumentLists) in cases {
            var worst = 0.0
            for arguments in argumentLists {
                var inputs = ValueObject()
                for (i, argument) in arguments.enumerated() { inputs["a\(i)"] = argument }
                let call = "${{ \(function)(\(arguments.indices.map { "inputs.a\($0)" }.joined(separator: ", "))) }}"
                let template = try TemplateString.parse(call)
                let context = EvaluationContext(inputs: inputs, now: Date(timeIntervalSince1970: 1_796_083_200), timeZone: .gmt)
                let seconds = await Measure.best(runs: runs, warmUp: 0) {
                    // A function may refuse an input (`date` of a million a's): the time counts either way.
                    _ = try? template.evaluate(in: context)
                }
                worst = max(worst, seconds)
            }
            slowest = max(slowest, worst)
            figures.append(Figure(name: "string_fn_\(function)", value: worst * 1000, unit: "ms"))
        }
        figures.append(Figure(name: "string_fn_slowest", value: slowest * 1000, unit: "ms"))
        return figures
    }
}
