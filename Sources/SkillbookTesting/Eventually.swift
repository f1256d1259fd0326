import Foundation

/// Checks `condition` every few milliseconds until it holds (`true`) or `seconds` have passed
/// (`false`): the one polling helper of the test suites (a child's output, a journal row, a
/// process gone). The condition may read a journal (`async`).
public func eventually(within seconds: Double = 30, _ condition: () async -> Bool) async -> Bool {
    let giveUp = Date().addingTimeInterval(seconds)
    while !(await condition()) {
        if Date() > giveUp { return false }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return true
}
