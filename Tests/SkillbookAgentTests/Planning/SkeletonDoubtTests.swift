import SkillbookAgent
import SkillbookCore
import Testing

/// Issue 26, class 8: a skeleton the matcher is unsure of is not forced on the model; the model
/// proposes the order of the steps from the offers first. Requests of that class, in new wording.
@Suite struct SkeletonDoubtTests {
    static func skeleton(_ request: String) -> PlanSkeleton? {
        PlanSkeletonTests.skeleton(request)
    }

    /// "find the temp files to throw away in /tmp/app and move them to /tmp/old" planned by a model
    /// that proposes `order`, then answers with files.list and files.move.
    static func planTheTempFiles(proposing order: String) async -> (ScriptedModel, Planner.Report) {
        let plan = #"{"steps":[{"skill":"files.list","with":{"root":"/tmp/app","glob":"*.log"}},{"skill":"files.move","with":{"paths":"${{ steps.s1.output.items.*.path }}","into":"/tmp/old"}}]}"#
        let model = ScriptedModel(contents: [order, plan])
        let planner = Planner(client: model, checker: shippedChecker, prompt: berlinPrompt)
        let report = await planner.plan(
            "find the temp files to throw away in /tmp/app and move them to /tmp/old", choosingFrom: PlanSkeletonTests.all, matcher: shippedMatcher,
            clock: berlinClock)
        return (model, report)
    }

    @Test func aSearchWhoseBestMatchChangesSomethingIsInDoubt() throws {
        let skeleton = try #require(Self.skeleton("find the temp files to throw away in /tmp/app and move them to /tmp/old"))
        #expect(skeleton.slots.first?.names.first == "files.delete")
        #expect(
            skeleton.doubts.map(\.reason) == [
                "'find the temp files to throw away in /tmp/app' asks to find or list, but its best match files.delete changes something (files.list is a query)"
            ])
    }

    @Test func aClauseUnderTheFloorBesideASureOneIsInDoubtNotTheEndOfTheSkeleton() throws {
        let skeleton = try #require(Self.skeleton("read /tmp/todo.txt and ping me Thursday at 2pm with a reminder about it"))
        #expect(skeleton.slots.count == 2)
        #expect(skeleton.doubts.map(\.clause) == ["ping me Thursday at 2pm with a reminder about it"])
        #expect(skeleton.doubts.first?.reason.hasSuffix("under 0.3") == true)
        // Nothing matches any part: still no skeleton (the model plans freely, or declines).
        #expect(Self.skeleton("order a pizza and deliver it to my office") == nil)
    }

    @Test func aClauseHoldingMoreActionsThanOneStepIsInDoubt() throws {
        let skeleton = try #require(Self.skeleton("read /tmp/report.txt, check it for typos and save it as a note"))
        #expect(skeleton.slots.count == 2)
        #expect(
            skeleton.doubts.map(\.reason) == [
                "'read /tmp/report.txt, check it for typos' holds 2 actions ('read /tmp/report.txt', 'check it for typos'), more than one step"
            ])
        // The plan may have a step for each action, and one more.
        #expect(Planner.maxSteps(for: "read /tmp/report.txt, check it for typos and save it as a note", cap: 8) == 4)
    }

    @Test func aPlaybookMatchedThroughAWordOfAPathIsInDoubt() throws {
        let skeleton = try #require(Self.skeleton("看看/tmp/日记，然后保存为笔记"))
        #expect(skeleton.slots.first?.names.first == "daily-journal")
        #expect(skeleton.doubts.map(\.reason).contains("'看看/tmp/日记' matches playbook daily-journal only through the path '/tmp/日记'"))
    }

    @Test func aSkeletonTheMatcherIsSureOfHasNoDoubts() throws {
        for request in [
            "summarize https://example.com and save it as a note", "read /tmp/todo.txt and save it as a note titled Todo",
            "list my notes tagged work and save their titles as a note called Work titles",
            "archive /tmp/project into /tmp/project.tar.gz and then compute the checksum of /tmp/project.tar.gz",
        ] {
            #expect(try #require(Self.skeleton(request)).doubts.isEmpty, "\(request)")
        }
    }

    /// The question for the order: the plan's rules, the offers, and an answer of ids only.
    @Test func theSequenceQuestionAsksForIdsOnlyFromTheOffers() throws {
        let request = "find the temp files to throw away in /tmp/app and move them to /tmp/old"
        let offered = offers("files.delete", "files.list", "files.move")
        let question = berlinPrompt.sequenceQuestion(request: request, offers: offered, minSteps: 2, maxSteps: 3)
        #expect(question.messages.count == 2)
        #expect(question.messages[0] == berlinPrompt.messages(request: request, offers: offered)[0])
        let user = question.messages[1].content
        #expect(user.contains("- skill files.list (query)"))
        #expect(user.contains("Request: \(request)\nFirst only the order: answer {\"steps\": [ID, ...]}"))
        #expect(user.hasSuffix("a step that finds or lists things is a query, never a skill that deletes or moves them."))
        let schema = try #require(question.responseFormat["json_schema"]?["schema"])
        let steps = schema["anyOf"]?.arrayValue?.first?["properties"]?["steps"]
        #expect(steps?["items"] == ["enum": ["files.delete", "files.list", "files.move"]])
        #expect(steps?["minItems"] == 2)
        #expect(steps?["maxItems"] == 3)
        #expect(schema["anyOf"]?.arrayValue?.last?["required"] == ["question"])
    }

    /// The model's order becomes a skeleton the plan is asked along: a fixed list of steps, the
    /// order line naming them without clauses.
    @Test func aProposedOrderIsASkeletonThePlanFollows() throws {
        let offered = offers("files.delete", "files.list", "files.move")
        #expect(PlanSkeleton.proposed(["files.list", "web.fetch"], offers: offered) == nil)
        #expect(PlanSkeleton.proposed([], offers: offered) == nil)
        let skeleton = try #require(PlanSkeleton.proposed(["files.list", "files.move"], offers: offered))
        let request = "find the temp files to throw away in /tmp/app and move them to /tmp/old"
        let question = berlinPrompt.question(request: request, offers: offered, skeleton: skeleton)
        let shape = try #require(question.shape)
        #expect(shape.sequences.map { $0.map(\.names) } == [[["files.list"], ["files.move"]]])
        #expect(question.messages[1].content.contains("Steps in order: s1 files.list, s2 files.move.\n"))
        let items = question.responseFormat["json_schema"]?["schema"]?["anyOf"]?.arrayValue?.first?["properties"]?["steps"]?["prefixItems"]
        #expect(items?.arrayValue?.map { $0["properties"]?["skill"]?["const"] } == ["files.list", "files.move"])
    }

    /// The planner asks for the order first when the skeleton is in doubt, then the plan along it;
    /// the clause in doubt binds no step to its best match (files.delete is not required).
    @Test func thePlannerAsksForTheOrderFirstWhenTheSkeletonIsInDoubt() async throws {
        let order = #"{"steps":["files.list","files.move"]}"#
        let (model, report) = await Self.planTheTempFiles(proposing: order)
        #expect(report.attempts.map(\.schema) == [.sequence, .skeleton])
        #expect(report.attempts.first?.result == .sequence(["files.list", "files.move"]))
        let first = try #require(model.requests.first)
        #expect(first.messages[1].content.contains("First only the order"))
        let enumerated = first.responseFormat?["json_schema"]?["schema"]?["anyOf"]?.arrayValue?.first?["properties"]?["steps"]?["items"]?["enum"]
        #expect(enumerated?.arrayValue?.contains("files.list") == true)
        #expect(enumerated?.arrayValue?.contains("files.delete") == true)
        let second = try #require(model.requests.last)
        #expect(second.messages[1].content.contains("Steps in order: s1 files.list, s2 files.move."))
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.map(\.target) == ["files.list", "files.move"])
    }

    /// An order that leaves out a step the plan must have (the sure clause "move them to …" is
    /// files.move's) cannot pass: the plan is asked as if none had been proposed (along the
    /// matcher's skeleton when it can be written, else over the offers), and the first plan passes
    /// (such a proposal had cost three refused plans).
    @Test func aProposedOrderWithoutAStepThePlanMustHaveIsNotFollowed() async throws {
        let order = #"{"steps":["files.list","notify.send"]}"#
        let (model, report) = await Self.planTheTempFiles(proposing: order)
        #expect(report.attempts.count == 2 && report.attempts.first?.schema == .sequence)
        let second = try #require(model.requests.last)
        #expect(second.messages[1].content.contains("files.move"))
        #expect(!second.messages[1].content.contains("s2 notify.send"))
        guard case .plan(let checked) = report.outcome else {
            Issue.record("not a plan: \(report.outcome)")
            return
        }
        #expect(checked.plan.steps.map(\.target) == ["files.list", "files.move"])
    }

    /// A clause that asks to list, whose best match is an action a query ties with, is the query's:
    /// "list the notes tagged ideas" (notes.create_many 0.66, notes.list 0.64) is notes.list, and
    /// "look for log files to trash in X" files.list, without a doubt.
    @Test func aListingATiedActionBeatsIsTheQuerys() throws {
        let notes = try #require(Self.skeleton("list the notes tagged ideas and write their titles to /tmp/ideas.txt"))
        #expect(notes.slots.first?.names == ["notes.list"] && notes.doubts.isEmpty)
        let logs = try #require(Self.skeleton("look for log files to trash in /tmp/app and move them to /tmp/old"))
        #expect(logs.slots.first?.names == ["files.list"] && logs.doubts.isEmpty)
    }
}
