// fuzz-modules: Core
import Foundation
import SkillbookCore

/// The cron parser: any text parses or gives errors whose offsets are inside it; a parsed
/// expression answers `matchesDay` for every day of a leap year without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCron(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    switch CronParser.parse(text) {
    case .success(let expression):
        for month in 1...12 {
            for day in 1...31 { _ = expression.matchesDay(day: day, month: month, weekday: (day + month) % 7) }
        }
    case .failure(let errors):
        for error in errors.problems {
            check(error.offset >= 0 && error.offset <= text.count, "offset \(error.offset) outside '\(text)'")
        }
    }
    return 0
}
