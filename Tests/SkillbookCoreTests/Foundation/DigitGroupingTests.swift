import SkillbookCore
import Testing

@Suite struct DigitGroupingTests {
    @Test(arguments: [
        (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (100_000, "100,000"), (1_234_567, "1,234,567"), (-1300, "-1,300"),
        (Int.min, "-9,223,372,036,854,775,808"),
    ])
    func groupsOfThreeDigitsAreSeparatedByCommas(_ number: Int, _ expected: String) {
        #expect(DigitGrouping.grouped(number) == expected)
    }
}
