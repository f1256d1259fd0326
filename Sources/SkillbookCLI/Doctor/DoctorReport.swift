import Foundation
import SkillbookCore
import SkillbookHost

/// What `skillbook doctor` prints: a line per check (its status, name and finding, then the fix
/// of one that is not ok), and a last line that sums up; or the same as one JSON object.
struct DoctorReport {
    var checks: [DoctorCheck]

    /// Nothing failed (warnings do not count).
    var passed: Bool { !checks.contains { $0.status == .failed } }

    var text: String {
        let width = checks.map(\.name.count).max() ?? 0
        var text = ""
        for check in checks {
            let status = check.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            text += "\(status) \(check.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(check.detail)\n"
            if let fix = check.fix { text += "         \(String(repeating: " ", count: width))  fix: \(fix)\n" }
        }
        let failed = checks.filter { $0.status == .failed }.count
        let warnings = checks.filter { $0.status == .warning }.count
        let warned = warnings == 0 ? "" : " (\(warnings) warning\(warnings == 1 ? "" : "s"))"
        text += failed == 0 ? "all good\(warned)\n" : "\(failed) problem\(failed == 1 ? "" : "s") found\(warned)\n"
        return text
    }

    var json: String {
        var object = ValueObject()
        object["ok"] = .bool(passed)
        object["checks"] = .array(
            checks.map { check in
                var item = ValueObject()
                item["name"] = .string(check.name)
                item["status"] = .string(check.status.rawValue)
                item["detail"] = .string(check.detail)
                item["fix"] = check.fix.map { .string($0) } ?? .null
                return .object(item)
            })
        return JSONText.encode(.object(object)) + "\n"
    }

    /// A host error as one line (the first diagnostic of a file with errors, with its place).
    static func describe(_ error: HostError) -> String {
        switch HostErrorText.form(error) {
        case .usage(let message), .refusal(let message), .failure(let message): message
        case .diagnostics(let diagnostics, _): diagnostics.first.map { "\($0)" } ?? "\(error)"
        }
    }
}
