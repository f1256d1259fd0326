/// Whole numbers as people read them in messages: `1300` as `1,300`.
public enum DigitGrouping {
    /// `number` with a comma between each group of three digits (`-1,234,567`).
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }
}
