import Foundation
import SkillbookCore
import SkillbookRuntime

/// Asks on the terminal, showing the resolved parameters (secrets already masked).
struct TerminalConfirmer: Confirmer {
    var console: Console

    func confirm(_ request: ConfirmationRequest) async -> ConfirmationAnswer {
        var text = "\nStep '\(request.step)' runs \(request.skill): \(request.summary)\n"
        if request.calls > 1 { text += "It makes \(request.calls) calls. " }
        text += "Parameters:\n"
        for (key, value) in request.parameters {
            text += "  \(key): \(JSONText.encode(value))\n"
        }
        console.writeErr(text + "Run it? [y/N] ")
        guard let answer = await console.readLine() else { return .declined(reason: "no answer (end of input)") }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) ? .approved : .declined(reason: "declined")
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
