import SkillbookCore
import Testing

@Suite struct StepPathTests {
    @Test func theTextFormRoundTrips() {
        for text in ["save", "sub/x", "outer/inner/deepest"] {
            let path = StepPath(parsing: text)
            #expect(path.description == text)
            #expect(StepPath(parsing: path.description) == path)
        }
        #expect(StepPath(parsing: "outer/inner/deepest").components == ["outer", "inner", "deepest"])
        #expect(StepPath(["a", "b"]).description == "a/b")
    }

    @Test func aPathKnowsItsPlaceInsideSubPlaybooks() {
        let path: StepPath = "outer/inner/deepest"
        #expect(path.id == "deepest")
        #expect(path.root == "outer")
        #expect(path.depth == 2)
        #expect(path.parent == "outer/inner")
        #expect(path.ancestors == ["outer/inner", "outer"])
        #expect(StepPath(step: "top").parent == nil)
        #expect(StepPath(step: "top").depth == 0)
        #expect(StepPath(step: "sub").appending("x") == "sub/x")
        #expect(path.isWithin("outer"))
        #expect(!StepPath("outerx/y").isWithin("outer"))
        #expect(StepPath("a") < StepPath("a/b"))
    }

    @Test func aTargetRoundTripsThroughTheJournalsText() {
        #expect(StepTarget.playbook("inner").description == "playbook:inner")
        #expect(StepTarget.skill("notes.create").description == "notes.create")
        for target in [StepTarget.playbook("inner"), .skill("notes.create")] {
            #expect(StepTarget(parsing: target.description) == target)
        }
        #expect(StepTarget(parsing: "notes.create").skill == "notes.create")
        #expect(StepTarget.playbook("inner").skill == nil)
    }
}
