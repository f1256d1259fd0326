// fuzz-modules: Core
import Foundation
import SkillbookCore

/// The date parser in four zones (one without DST, two with it, one a half-hour off): no crash,
/// and a parsed date formats and parses back to the same instant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDates(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    let now = Date(timeIntervalSince1970: 1_774_749_600)  // 2026-03-29T02:00Z, a DST change in Europe
    for zone in FuzzDates.zones {
        let parser = DateParser(now: now, timeZone: zone)
        guard let parsed = parser.parse(text) else { continue }
        let written = parsed.hasTime ? DateParser.formatUTC(parsed.date) : DateParser.formatDate(parsed.date, timeZone: zone)
        guard let again = parser.parse(written) else { fail("\(written) (from \(text)) does not parse in \(zone.identifier)") }
        check(again.date == parsed.date, "\(text) → \(written) → \(again.date) in \(zone.identifier), not \(parsed.date)")
    }
    return 0
}

enum FuzzDates {
    static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"].map { TimeZone(identifier: $0)! }
}
