import Foundation

/// Checks `condition` every few milliseconds until it holds (`true`) or `seconds` have passed (`false`).
public func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let giveUp = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > giveUp { return false }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return true
}
