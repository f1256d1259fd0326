import Foundation
import Testing

@testable import SkillbookHost

/// `UTCTimestamp` writes what Foundation's ISO 8601 style with fractional seconds writes.
@Suite struct UTCTimestampTests {
    let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    @Test func writesWhatFoundationWritesForAnyTime() {
        var times: [Double] = [
            0, -0.0004, 1.9996, -1.9996, 0.18, 951_782_400, 951_868_799.9999, 1_796_112_900.1235, 4_102_444_799.999,
            -2_208_988_800, 253_402_300_799.9995,
        ]
        // Whole milliseconds a little apart (a step prime to 1,000 ms, so every millisecond comes
        // up), each just below and above too, and times with long fractions.
        for millisecond in stride(from: -2_208_988_800_000, to: 4_102_444_800_000, by: 315_569_261) {
            let time = Double(millisecond) / 1000
            times += [time, time - 1e-7, time + 1e-7]
        }
        for step in 0..<20_000 { times.append(-2e9 + Double(step) * 300_000.123_456_789_1) }
        let wrong = times.map { Date(timeIntervalSince1970: $0) }.filter { UTCTimestamp.milliseconds($0) != $0.formatted(foundation) }
        #expect(wrong.isEmpty, "\\(wrong.prefix(3).map { ($0.timeIntervalSince1970, UTCTimestamp.milliseconds($0), $0.formatted(foundation)) })")
        #expect(UTCTimestamp.milliseconds(Date(timeIntervalSince1970: 1_796_112_900.1235)) == "2026-12-01T08:15:00.123Z")
    }

    @Test func datesOutsideTheFastRangeAreFoundations() {
        for time in [-62_135_596_800.0, -2_208_988_800.5, 253_402_300_800, 1e12] {
            let date = Date(timeIntervalSince1970: time)
            #expect(UTCTimestamp.milliseconds(date) == date.formatted(foundation))
        }
    }
}
