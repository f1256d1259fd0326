import Foundation
import SkillbookAgent
import SkillbookHost
import Testing

@Suite struct ModelSettingsTests {
    @Test func theModelComesFromTheEnvironment() throws {
        let settings = try #require(
            ModelSettings.fromEnvironment([
                "SKILLBOOK_MODEL_URL": "http://127.0.0.1:8080/v1", "SKILLBOOK_MODEL": "qwen", "SKILLBOOK_API_KEY": "sk-1",
            ]))
        #expect(settings.url.absoluteString == "http://127.0.0.1:8080/v1")
        #expect(settings.model == "qwen")
        #expect(settings.apiKey == "sk-1")
        #expect(settings.budget.maxCalls == 5)
    }

    @Test func withoutAnHTTPURLThereIsNoModel() {
        #expect(ModelSettings.fromEnvironment([:]) == nil)
        #expect(ModelSettings.fromEnvironment(["SKILLBOOK_MODEL_URL": ""]) == nil)
        #expect(ModelSettings.fromEnvironment(["SKILLBOOK_MODEL_URL": "ftp://host/v1"]) == nil)
        let bare = ModelSettings.fromEnvironment(["SKILLBOOK_MODEL_URL": "https://api.example/v1", "SKILLBOOK_MODEL": "", "SKILLBOOK_API_KEY": ""])
        #expect(bare?.model == nil)
        #expect(bare?.apiKey == nil)
    }

    @Test func theWorkspaceConfigurationCarriesIt() {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
        let configured = HostConfiguration.workspace(in: directory, environment: ["SKILLBOOK_MODEL_URL": "http://127.0.0.1:9/v1"])
        #expect(configured.model?.url.absoluteString == "http://127.0.0.1:9/v1")
        #expect(HostConfiguration.workspace(in: directory, environment: [:]).model == nil)
    }
}
