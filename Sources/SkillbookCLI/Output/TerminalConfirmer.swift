import Foundation
import SkillbookCore
import SkillbookRuntime

/// Asks on the terminal, showing what the call will touch (the notes' titles, the files' paths)
/// when the skill says, otherwise the resolved parameters (secrets already masked).
struct TerminalConfirmer: Confirmer {
    var console: Console
    /// Lines of items (or parameters) shown at most; the rest are counted.
    static let limit = 10

    func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        console.writeErr(Self.prompt(request))
        guard let answer = await console.readLine() else { return .declined(reason: "no answer (end of input)") }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) ? .approved : .declined(reason: "declined")
    }
}

extension TerminalConfirmer {
    /// The question: what runs, on what (one line per item up to `limit`), and `Run it? [y/N] `.
    static func prompt(_ request: ConfirmationRequest) -> String {
        var text = "\nStep '\(request.step)' runs \(request.skill) (\(request.title))"
        let calls = request.calls > 1 ? " in \(request.calls) calls" : ""
        var lines: [String]
        if let touches = request.touches {
            text += " on \(DigitGrouping.grouped(touches.items.count)) \(touches.noun)\(calls):\n"
            lines = touches.items
        } else {
            text += "\(calls) with:\n"
            lines = request.parameters.map { DryRunText.parameter($0.key, $0.value, base: nil) }
            if request.calls > 1 { lines.append("(the parameters of the first call)") }
        }
        for line in lines.prefix(limit) { text += "  \(line)\n" }
        if lines.count > limit { text += "  … and \(DigitGrouping.grouped(lines.count - limit)) more\n" }
        return text + "Run it? [y/N] "
    }
}

/// Pauses the live renderer while another confirmer asks on the terminal.
struct PausingConfirmer: Confirmer {
    var base: any Confirmer
    var renderer: LiveRenderer

    func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        await renderer.pause()
        let answer = await base.confirm(request)
        await renderer.resume()
        return answer
    }
}
