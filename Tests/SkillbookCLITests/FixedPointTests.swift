@testable import SkillbookCLI
import Testing

/// `FixedPoint` prints durations as `String(format: "%.Nf")` did.
@Suite struct FixedPointTests {
    @Test func digitsAfterThePointRoundedHalfAwayFromZero() {
        #expect(FixedPoint.text(0, digits: 2) == "0.00")
        #expect(FixedPoint.text(1.5, digits: 2) == "1.50")
        #expect(FixedPoint.text(0.004, digits: 2) == "0.00")
        #expect(FixedPoint.text(0.126, digits: 2) == "0.13")
        #expect(FixedPoint.text(9.999, digits: 2) == "10.00")
        #expect(FixedPoint.text(12.34, digits: 1) == "12.3")
        #expect(FixedPoint.text(59.96, digits: 1) == "60.0")
        #expect(FixedPoint.text(-0.25, digits: 1) == "-0.3")
        #expect(FixedPoint.text(-0.001, digits: 2) == "0.00", "no minus sign on a value that rounds to zero")
        #expect(FixedPoint.text(3.7, digits: 0) == "4")
    }

    @Test func zeroPadding() {
        #expect(FixedPoint.padded(5, to: 2) == "05")
        #expect(FixedPoint.padded(42, to: 2) == "42")
        #expect(FixedPoint.padded(123, to: 2) == "123")
    }
}
