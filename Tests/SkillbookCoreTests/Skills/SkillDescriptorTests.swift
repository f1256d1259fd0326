import SkillbookCore
import Testing

@Suite struct SkillDescriptorTests {
    @Test(arguments: ["notes.create", "files.read", "text.join", "mcp2.tool_1", "a.b", "notes.create@2", "x.y@10"])
    func aDomainAndANameWithAnOptionalVersionAreAnID(_ id: String) {
        #expect(SkillDescriptor.isValidID(id))
    }

    @Test(arguments: [
        "", "notes", "notes.", ".create", "notes.create.more", "Notes.create", "notes.Create", "1notes.create", "notes._create",
        "notes.cre-ate", "notes.create@", "notes.create@x", "notes.create@1@2", "notes@1.create", "nötes.create", "notes.créate",
        "notes create.x", "notes.create ",
    ])
    func anythingElseIsNot(_ id: String) {
        #expect(!SkillDescriptor.isValidID(id))
    }
}
