import SkillbookCore
import Testing

@testable import SkillbookAgent

@Suite struct FixedValuesTests {
    /// reminders.create with `due` fixed to `value` (what `PlanOffer.fixingDates` makes).
    static func reminder(due value: String) throws -> PlanOffer {
        let offer = try #require(offers("reminders.create").first)
        var fixed = offer
        fixed.parameters = Schema(
            type: .object, properties: offer.parameters.properties.map { name, schema in
                (name, name == "due" ? Schema(type: .string, enumValues: [.string(value)], format: "date-time") : schema)
            }, required: offer.parameters.required + ["due"], additionalProperties: false)
        return fixed
    }

    @Test func aRequiredParameterWithOneValueIsFixedAndOthersAreNot() throws {
        #expect(try Self.reminder(due: "2026-12-02T09:00:00+01:00").fixedValues == ["due": "2026-12-02T09:00:00+01:00"])
        #expect(try #require(offers("reminders.create").first).fixedValues.isEmpty)
    }

    @Test func eachStepIsFilledFromItsOwnSlotAndAWrittenValueIsKept() throws {
        let first = try Self.reminder(due: "2026-12-02T09:00:00+01:00")
        let second = try Self.reminder(due: "2026-12-04T15:00:00+01:00")
        let values = FixedValues(shape: PlanSchema.Shape(schema: .null, sequences: [[
            PlanSkeleton.Slot(clause: "remind me tomorrow at 9", offers: [first]),
            PlanSkeleton.Slot(clause: "remind me Friday at 3pm", offers: [second]),
        ]]))
        let plan = Plan(steps: [
            Plan.Step(id: "s1", target: "reminders.create", with: ["title": "a"]),
            Plan.Step(id: "s2", target: "reminders.create", with: ["title": "b"]),
        ])
        let filled = values.filled(plan)
        #expect(filled.steps.map { $0.with["due"] } == ["2026-12-02T09:00:00+01:00", "2026-12-04T15:00:00+01:00"])
        // A plan that follows no sequence (the simpler schema) takes the first offer of its name.
        let one = values.filled(Plan(steps: [Plan.Step(id: "s1", target: "reminders.create", with: ["title": "a", "due": "x"])]))
        #expect(one.steps[0].with["due"] == "x")
        let free = FixedValues(offers: [second]).filled(Plan(steps: [Plan.Step(id: "s1", target: "reminders.create", with: ["title": "a"])]))
        #expect(free.steps[0].with["due"] == "2026-12-04T15:00:00+01:00")
    }
}
