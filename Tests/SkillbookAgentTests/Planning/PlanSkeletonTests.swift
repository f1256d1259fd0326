import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PlanSkeletonTests {
    static let all =
        shippedPlaybooks.map(PlanOffer.init(playbook:))
        + shippedRegistry.descriptors.map(PlanOffer.init(skill:))

    static func skeleton(_ request: String) -> PlanSkeleton? {
        PlanSkeleton.make(for: request, offers: all, matcher: shippedMatcher, clock: berlinClock)
    }

    static func shapes(_ skeleton: PlanSkeleton?) -> [[String]] {
        (skeleton?.sequences ?? []).map { $0.map { $0.names.joined(separator: "|") } }
    }

    @Test func eachClauseIsAStepInTheRequestsOrder() throws {
        let skeleton = try #require(
            Self.skeleton("summarize https://example.com and save it as a note"))
        #expect(skeleton.slots.map(\.clause) == ["summarize https://example.com", "save it as a note"])
        // web.summary gives texts (title…): no adapter is needed before notes.create.
        #expect(Self.shapes(skeleton) == [["web.summary", "notes.create"]])
        #expect(PlanSchema.shape(skeleton)?.offers.map(\.name) == ["web.summary", "notes.create"])
    }

    @Test func anUnsureClauseMayBeEitherOfItsBestTwo() throws {
        let skeleton = try #require(
            Self.skeleton("read /tmp/todo.txt and turn it into notes"))
        #expect(Self.shapes(skeleton) == [["files.read", "notes.create|notes.list"]])
        // ("save it as a note titled Todo" is notes.create's, sure since "put the output in a note titled …")
        #expect(Self.shapes(Self.skeleton("read /tmp/todo.txt and save it as a note titled Todo")) == [["files.read", "notes.create"]])
    }

    @Test func aListWithoutTextMayPassThroughAnAdapter() {
        // notes.list gives lists and a count, no text: text.join may join the titles for the note.
        #expect(
            Self.shapes(
                Self.skeleton(
                    "list my notes tagged work and save their titles as a note called Work titles")) == [
                    ["notes.list", "notes.create"], ["notes.list", "text.join", "notes.create"],
                ])
    }

    @Test func commaSeparatedPartsThatEachMatchAreSteps() {
        #expect(
            Self.shapes(
                Self.skeleton(
                    "list the files in /tmp/reports, join their paths into one text and write it to /tmp/reports.txt"
                ))
                == [["files.list", "text.join", "files.write"]])
    }

    @Test func aPathInAClauseIsNoWordOfWhatToDo() {
        // "/tmp/project.tar.gz" once made archive.create the best match for the checksum.
        #expect(
            Self.shapes(
                Self.skeleton(
                    "archive /tmp/project into /tmp/project.tar.gz and then compute the checksum of /tmp/project.tar.gz"
                ))
                == [["archive.create", "files.checksum"]])
    }

    @Test func oneClauseOrAClauseNothingMatchesHasNoSkeleton() {
        #expect(Self.skeleton("summarize https://example.com") == nil)
        #expect(Self.skeleton("order a pizza and deliver it to my office") == nil)
    }
}
