import Foundation
import SkillbookTesting
import Testing

/// Issue 27 item 8: a model URL that is not an http(s) address is an error wherever it is set,
/// never silently "no model is configured".
@Suite struct ModelURLTests {
    @Test func aBadModelURLInTheEnvironmentIsRefusedLikeOneInSkillbookYaml() async throws {
        let directory = TemporaryDirectory()
        let fromEnvironment = await skillbook(["ask", "hello"], in: directory, environment: ["SKILLBOOK_MODEL_URL": "not-a-url"])
        #expect(fromEnvironment.code == 2)
        #expect(
            fromEnvironment.errLines.first == "SKILLBOOK_MODEL_URL: error: 'SKILLBOOK_MODEL_URL' must be an http or https address, got 'not-a-url'",
            "\(fromEnvironment.err)")

        directory.write("skillbook.yaml", "model: { url: not-a-url }\n")
        let fromFile = await skillbook(["ask", "hello"], in: directory)
        #expect(fromFile.code == 2)
        #expect(fromFile.err.contains("skillbook.yaml:1:15: error: 'model.url' must be an http or https address, got 'not-a-url'"), "\(fromFile.err)")
    }
}
