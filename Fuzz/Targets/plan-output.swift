// fuzz-modules: Core Agent
import Foundation
import SkillbookAgent
import SkillbookCore

/// A model's answer → `PlanParser` → `PlanChecker` (coercion, the playbook text, the loader and
/// checker, the lint), with the YAML round-trip oracle (issue 28.2-4): the playbook text the
/// checker writes (what `ask --save` saves) always loads as YAML, and every step's id, target and
/// `with` values — and the request, written as the description — read back as the plan held them.
/// The first line of the input is the request; the rest is the model's content.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlanOutput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = FuzzInput.text(data, count)
    let newline = text.firstIndex(of: "\n") ?? text.endIndex
    let request = String(text[..<newline])
    let content = newline == text.endIndex ? "" : String(text[text.index(after: newline)...])
    guard case .plan(let plan)? = try? PlanParser.parse(ChatResponse(content: content)) else { return 0 }
    let checked = FuzzPlanOutput.checker.check(plan, name: "fuzz-plan", description: request)
    let node: YAMLNode?
    do {
        node = try YAMLLoader().load(checked.text, file: "fuzz-plan.yaml")
    } catch {
        fail("the plan's playbook text does not load: \(error)\n\(checked.text)")
    }
    guard case .object(let document)? = node?.value, case .array(let steps)? = document["steps"] else {
        fail("no steps in the plan's playbook text:\n\(checked.text)")
    }
    if !request.isEmpty { check(document["description"] == .string(request), "the description reads back as \(String(describing: document["description"])), not \(request)") }
    check(steps.count == checked.plan.steps.count, "\(steps.count) steps read back of \(checked.plan.steps.count)")
    for (written, read) in zip(checked.plan.steps, steps) {
        guard case .object(let step) = read else { fail("a step is not a mapping: \(read)") }
        check(step["id"] == .string(written.id), "step id \(written.id) reads back as \(String(describing: step["id"]))")
        check(step[written.isPlaybook ? "playbook" : "skill"] == .string(written.target), "target \(written.target) changed")
        let with = step["with"]?.objectValue ?? [:]
        check(with.count == written.with.count, "step \(written.id): \(with.count) parameters read back of \(written.with.count)")
        for (key, value) in written.with {
            guard let again = with[key] else { fail("step \(written.id): parameter \(key.debugDescription) lost\n\(checked.text)") }
            check(SchemaValidator.equalAsData(again, value), "step \(written.id): \(key.debugDescription) = \(value) reads back as \(again)")
        }
    }
    if checked.playbook != nil && !checked.diagnostics.contains(where: { $0.severity == .error }) {
        check(checked.passes, "a plan without errors does not pass")
    }
    return 0
}

enum FuzzPlanOutput {
    static let checker = PlanChecker(
        registry: FuzzInput.registry,
        coercion: Coercion(dates: DateParser(now: Date(timeIntervalSince1970: 1_774_749_600), timeZone: TimeZone(identifier: "Europe/Berlin")!)))
}
