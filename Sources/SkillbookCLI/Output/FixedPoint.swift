/// Numbers as the CLI prints durations, without Foundation's `String(format:)` (which goes through
/// a locale and C varargs: a measurable part of a short command's start-up).
enum FixedPoint {
    /// `value` with exactly `digits` digits after the point (rounded half away from zero), as
    /// `String(format: "%.<digits>f")` prints it: `1.5` with 2 digits is `1.50`.
    static func text(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let units = Int(scaled)
        let whole = units / Int(scale)
        let sign = value < 0 && units > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + padded(units % Int(scale), to: digits)
    }

    /// `value` with leading zeros to `width` digits (`%02d`).
    static func padded(_ value: Int, to width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
