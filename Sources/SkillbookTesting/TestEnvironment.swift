import Foundation
public import SkillbookRuntime
import SkillbookCore

extension EngineEnvironment {
    /// A fixed clock at 2026-11-30 10:15 UTC, retry waits recorded instead of slept, sequential
    /// run ids (`run-1`, `run-2`, …).
    public static func test(sleeps: Recorder<Double> = Recorder(), variables: [String: String] = [:]) -> EngineEnvironment {
        let counter = Recorder<Int>()
        return EngineEnvironment(
            clock: FixedClock(sleeps: sleeps), timeZone: TimeZone(identifier: "UTC")!,
            ids: IDGenerator {
                counter.append(1)
                return "run-\(counter.values.count)"
            },
            variables: variables)
    }
}
