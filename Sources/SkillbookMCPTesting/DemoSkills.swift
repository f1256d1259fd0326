public import SkillbookCore
import Synchronization

/// A few in-memory skills that exercise what MCP can say: a query, a confirming action, a slow
/// action reporting progress and honouring cancellation, and one that always fails.
public enum DemoSkills {
    /// Every demo skill, sharing one list of notes.
    public static func all(events: @escaping @Sendable (String) -> Void = { _ in }) -> [any Skill] {
        let notes = NoteList()
        return [Echo(), AddNote(notes: notes), ListNotes(notes: notes), Count(events: events), Fail()]
    }

    final class NoteList: Sendable {
        let titles = Mutex<[String]>([])
    }

    struct Echo: Skill {
        let descriptor = SkillDescriptor(
            id: "demo.echo", title: "Echo", summary: "Repeats a text.", kind: .query,
            parameters: .object(
                ["text": .string("What to repeat.", minLength: 1), "times": .integer("How often.", minimum: 1, maximum: 5, default: 1)],
                required: ["text"]),
            output: .object(["text": .string("The repeated text.")], required: ["text"]))

        func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
            let text = parameters["text"]?.stringValue ?? ""
            let times = parameters["times"]?.intValue ?? 1
            return ["text": .string(Array(repeating: text, count: times).joined(separator: " "))]
        }
    }

    struct AddNote: Skill {
        let notes: NoteList
        let descriptor = SkillDescriptor(
            id: "demo.add_note", summary: "Adds a note (asks first).", kind: .action, confirm: true,
            parameters: .object(["title": .string("The note's title.", minLength: 1)], required: ["title"]),
            output: .object(["id": .integer("The note's number."), "title": .string()], required: ["id", "title"]))

        func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
            let title = parameters["title"]?.stringValue ?? ""
            let id = notes.titles.withLock { titles in
                titles.append(title)
                return titles.count
            }
            return ["id": .int(id), "title": .string(title)]
        }
    }

    struct ListNotes: Skill {
        let notes: NoteList
        let descriptor = SkillDescriptor(
            id: "demo.list_notes", summary: "Lists the notes.", kind: .query, parameters: .object([:]),
            output: .object(
                ["titles": .array(.string()), "count": .integer()], required: ["titles", "count"]))

        func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
            let titles = notes.titles.withLock { $0 }
            return ["titles": .array(titles.map(Value.string)), "count": .int(titles.count)]
        }
    }

    struct Count: Skill {
        let events: @Sendable (String) -> Void
        let descriptor = SkillDescriptor(
            id: "demo.count", summary: "Counts slowly, reporting progress.", kind: .action, confirm: false,
            parameters: .object(
                [
                    "to": .integer("Where to stop.", minimum: 1, maximum: 1000),
                    "delay_ms": .integer("Milliseconds per step.", minimum: 0, maximum: 60000, default: 50),
                ], required: ["to"]),
            output: .object(["counted": .integer()], required: ["counted"]), idempotent: true)

        func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
            let to = parameters["to"]?.intValue ?? 1
            let delay = parameters["delay_ms"]?.intValue ?? 50
            for step in 1...to {
                do {
                    try await Task.sleep(for: .milliseconds(delay))
                } catch {
                    events("counting stopped at \(step - 1)")
                    throw error
                }
                context.progress(step, to)
            }
            return ["counted": .int(to)]
        }
    }

    struct Fail: Skill {
        let descriptor = SkillDescriptor(
            id: "demo.fail", summary: "Always fails.", kind: .action, parameters: .object([:]),
            output: .object([:]))

        func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
            throw SkillError("the demo failure")
        }
    }
}
