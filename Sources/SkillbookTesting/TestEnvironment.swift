import Foundation
public import SkillbookRuntime

extension EngineEnvironment {
    /// A fixed clock at 2026-11-30 10:15 UTC, retry waits recorded instead of slept, sequential run ids.
    public static func test(sleeps: Recorder<Double> = Recorder(), variables: [String: String] = [:]) -> EngineEnvironment {
        let counter = Recorder<Int>()
        return EngineEnvironment(
            now: { Date(timeIntervalSince1970: 1_796_033_700) }, timeZone: TimeZone(identifier: "UTC")!,
            sleep: { seconds in
                sleeps.append(seconds)
                try Task.checkCancellation()
            },
            makeRunID: {
                counter.append(1)
                return "run-\(counter.values.count)"
            },
            variables: variables)
    }
}
