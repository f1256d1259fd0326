import SkillbookCore

/// `debug.sleep`: waits, and stops promptly when cancelled.
struct DebugSleepSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "debug.sleep",
        title: "Wait a while",
        summary: "Waits the given number of seconds (0 to 3600), then returns { slept }. Stops at once when "
            + "the run is cancelled. Use it to test timeouts, progress and interrupts.",
        examples: [
            "sleep for {seconds} seconds", "wait {seconds} seconds", "wait for {seconds} seconds", "等{seconds}秒", "pause for a minute", "等待{seconds}秒",
            "暂停{seconds}秒",
        ],
        tags: ["debug", "test", "time"],
        kind: .query,
        parameters: .object(
            ["seconds": .number("How long to wait, in seconds.", minimum: 0, maximum: 3600)],
            required: ["seconds"]),
        output: .object(["slept": .number("The seconds waited.", minimum: 0)], required: ["slept"]),
        timeout: 3660,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let seconds = parameters["seconds"] ?? 0
        let duration = max(0, seconds.doubleValue ?? 0)
        // Task.sleep throws CancellationError as soon as the task is cancelled.
        try await Task.sleep(for: .seconds(duration))
        return ["slept": seconds]
    }
}
