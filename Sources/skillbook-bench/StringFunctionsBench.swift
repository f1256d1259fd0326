import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import SkillbookCore

/// `string_functions`: every expression function that reads a text, on 10⁶-character texts shaped
/// to find quadratic work (`a` + a million slashes for the path functions, a near-miss needle of
/// half a million characters for the searches, a million spaces for `trim`…). Prints one figure
/// per function as soon as it is measured, `string_fn_NAME MILLISECONDS ms` (the slowest of its
/// inputs, best of `runs`), and `string_fn_slowest`; each should stay well under a second (issue
/// 28.6: `basename` of `a` + 100,000 slashes took 37.7 s). Each function is measured in a child
/// bench process (`SKILLBOOK_BENCH_STRING_FN=NAME`) killed after `limit` seconds, so a
/// superlinear one prints `string_fn_NAME over 10 s` and the rest still run. Not a test: times
/// belong here, in a release build.
struct StringFunctionsBench {
    var size = 1_000_000
    var runs = 3
    var limit = 10.0
    static let childVariable = "SKILLBOOK_BENCH_STRING_FN"

    func run() async throws -> [Figure] {
        if let only = ProcessInfo.processInfo.environment[Self.childVariable] {
            return try await measure(only: only)
        }
        var slowest = 0.0
        var over: [String] = []
        for function in Self.functions {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            process.arguments = ["string_functions"] + (Measure.processorTime ? ["--cpu"] : [])
            var environment = ProcessInfo.processInfo.environment
            environment[Self.childVariable] = function
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let giveUp = Date().addingTimeInterval(limit)
            while process.isRunning, Date() < giveUp { try await Task.sleep(for: .milliseconds(10)) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                over.append(function)
                print("string_fn_\(function) over \(Int(limit)) s")
                fflush(nil)
                continue
            }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            guard process.terminationStatus == 0, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("string_fn_") }),
                let value = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
            else { throw BenchError("string_functions: the child for \(function) failed: \(text)") }
            slowest = max(slowest, value)
            print(line)
            fflush(nil)
        }
        guard over.isEmpty else {
            print("string_fn_slowest over \(Int(limit)) s (\(over.joined(separator: ", ")))")
            return []
        }
        return [Figure(name: "string_fn_slowest", value: slowest, unit: "ms")]
    }

    static let functions = [
        "length", "split", "lower", "upper", "contains", "replace", "trim", "starts_with", "ends_with", "basename",
        "dirname", "extension", "first", "last", "from_json", "to_json", "join", "date", "add_days", "format_date",
    ]

    /// The child's work: one function's figure.
    private func measure(only: String) async throws -> [Figure] {
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
        for (function, argumentLists) in cases where function == only {
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
            figures.append(Figure(name: "string_fn_\(function)", value: worst * 1000, unit: "ms"))
        }
        guard !figures.isEmpty else { throw BenchError("string_functions: no function \(only)") }
        return figures
    }
}
