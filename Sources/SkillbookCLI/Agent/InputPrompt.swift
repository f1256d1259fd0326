import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookHost

/// Asks on the terminal for required inputs a request did not give, coercing each answer to its
/// schema (a date answer may be a phrase: `tomorrow`, `下周一`).
struct InputPrompt {
    var console: Console

    /// The answers by name; `nil` when input ended before every one was given.
    func ask(_ missing: [String], of decision: RouteDecision, in workspace: AgentWorkspace, clock: Matcher.Clock) async -> ValueObject? {
        let target = workspace.matcher.targets.first { $0.name == decision.target }
        let coercion = Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone))
        var answers: ValueObject = [:]
        for name in missing {
            let schema = target?.schema(of: name)
            let about = schema?.description.map { " (\($0))" } ?? ""
            var answer: String?
            while answer == nil {
                console.writeErr("\(name)\(about): ")
                guard let line = await console.readLine() else { return nil }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { answer = trimmed }
            }
            guard let answer else { return nil }
            answers[name] = schema.map { coercion.coerce(coercion.coerceCommandLine(answer, to: $0), to: $0) } ?? .string(answer)
        }
        return answers
    }
}
