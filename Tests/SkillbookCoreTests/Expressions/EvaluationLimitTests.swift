import Foundation
import SkillbookCore
import Testing

/// Issue 28.5: an expression's evaluation is bounded by `Limits.expressionSteps` and stops when its
/// task is cancelled.
@Suite struct EvaluationLimitTests {
    /// The issue's shape: each level evaluates the one inside it ten times (`levels` = 9 is
    /// ~500 characters and ~10⁹ steps: it ran 349 s).
    static func nested(levels: Int) -> String {
        var inner = "[0]"
        for _ in 0..<levels { inner = "[[0],[0],[0],[0],[0],[0],[0],[0],[0],[0]].*[0*length(\(inner))]" }
        return "${{ \(inner) }}"
    }

    static let limitMessage = "the expression needs more than 1000000 evaluation steps, the limit; "
        + "nested projections multiply their work (simplify it, or compute the value in a step)"

    @Test func theIssuesExpressionStopsAtTheStepLimit() throws {
        let text = Self.nested(levels: 9)
        #expect(text.count < 520)
        #expect(Limits.expressionSteps == 1_000_000)
        let error = evaluationError("x " + text, in: Fixture.context)
        #expect(error?.message == Self.limitMessage)
        #expect(error?.offset == 2)
        // Two levels are a few hundred steps: evaluated.
        #expect(try evaluate(Self.nested(levels: 2)) == .array(Array(repeating: 0, count: 10)))
    }

    /// `1 + 2 * 3` is five nodes: five steps are enough, four are not.
    @Test func theLimitCountsNodes() throws {
        var context = Fixture.context
        context.stepLimit = 5
        #expect(try evaluate("${{ 1 + 2 * 3 }}", in: context) == 7)
        context.stepLimit = 4
        #expect(
            evaluationError("${{ 1 + 2 * 3 }}", in: context)?.message
                == "the expression needs more than 4 evaluation steps, the limit; nested projections multiply their work (simplify it, or compute the value in a step)")
        // Each expression of a template has its own count.
        context.stepLimit = 5
        #expect(try evaluate("${{ 1 + 2 * 3 }} and ${{ 1 + 2 * 3 }}", in: context) == "7 and 7")
    }

    @Test func aCancelledEvaluationStops() async {
        var context = Fixture.context
        context.stepLimit = .max
        let template = Self.nested(levels: 9)
        let task = Task { () -> ExpressionError? in
            while !Task.isCancelled { await Task.yield() }
            return evaluationError(template, in: context)
        }
        task.cancel()
        let error = await task.value
        #expect(error?.message == "evaluation was cancelled")
    }

    /// A playbook's expression that runs out of steps is reported at its file:line:column.
    @Test func theStopNamesTheExpressionsPosition() throws {
        let yaml = "name: deep\nsteps:\n  - id: a\n    skill: debug.echo\n    with:\n      value: \"n: \(Self.nested(levels: 9))\"\n"
        let loaded = PlaybookFixture.load(yaml, file: "deep.yaml")
        let mapping = try #require(loaded.playbook?.steps.first?.with.first)
        do {
            _ = try mapping.value.evaluate(in: Fixture.context)
            Issue.record("evaluated")
        } catch {
            #expect(error.message == "deep.yaml:6:18: " + Self.limitMessage)
        }
    }
}
