import Foundation
import SkillbookCore
import SkillbookSkills
import Testing
import SkillbookSystem

@testable import SkillbookMCP

/// Interoperability: a server made with the official Python SDK (`Fixtures/calc_server.py`)
/// as a source of skills, and a playbook over them type-checked from its `outputSchema`.
@Suite struct MCPSkillSourceTests {
    static func source(cache: String?) throws -> MCPSkillSource {
        MCPSkillSource(
            MCPSourceConfiguration(
                prefix: "calc", command: MCPServerCommand([try Paths.python(), Paths.fixture("calc_server.py")], timeout: 30)),
            processes: ProcessRunner(), cacheDirectory: cache)
    }

    @Test func thePythonServersToolsBecomeTypedSkills() async throws {
        let state = try Paths.temporaryDirectory()
        let source = try Self.source(cache: state)
        #expect(source.cachedSkills() == nil)
        let set = try await source.loadSkills()
        // The SDK's server answers `server/discover`: the client speaks 2026-07-28 to it.
        #expect(await source.client.protocolVersion == "2026-07-28")
        #expect(
            set.warnings == [
                "calc.scale: inputSchema.properties.value: 'multipleOf' is not checked",
                "calc.scale: inputSchema.properties.factor: 'exclusiveMinimum' is checked as 'minimum' (inclusive)",
            ])
        let descriptors = Dictionary(uniqueKeysWithValues: set.skills.map { ($0.descriptor.id, $0.descriptor) })
        #expect(
            set.skills.map(\.descriptor.id) == [
                "calc.add", "calc.shout_text", "calc.wipe", "calc.broken", "calc.nap", "calc.whoami", "calc.scale",
            ])
        #expect(descriptors["calc.add"]?.timeout == 35)

        let add = try #require(descriptors["calc.add"])
        #expect(add.kind == .query)
        #expect(!add.confirm)
        #expect(add.summary == "Adds two whole numbers.")
        #expect(add.parameters.required == ["a", "b"])
        #expect(add.parameters.property("a")?.type == .integer)
        #expect(add.output.property("sum")?.type == .integer)
        #expect(add.output.property("terms")?.typeDescription == "array of integer")

        let shout = try #require(descriptors["calc.shout_text"])
        #expect(shout.kind == .action)
        #expect(!shout.confirm)
        #expect(shout.parameters.property("times")?.type == .integer)
        #expect(shout.parameters.property("times")?.defaultValue == 1)

        let wipe = try #require(descriptors["calc.wipe"])
        #expect(wipe.kind == .action)
        #expect(wipe.confirm)
        #expect(wipe.output == MCPToolMapping.unstructuredOutput)

        let context = SkillContext(runID: "r", stepID: "s")
        let skills = Dictionary(uniqueKeysWithValues: set.skills.map { ($0.descriptor.id, $0) })
        #expect(try await skills["calc.add"]!.run(["a": 2, "b": 3], context: context) == ["sum": 5, "terms": [2, 3]])
        #expect(try await skills["calc.shout_text"]!.run(["text": "hi", "times": 2], context: context) == ["result": "HI HI"])
        let wiped = try await skills["calc.wipe"]!.run(["folder": "tmp"], context: context)
        #expect(wiped["text"] == "wiped tmp")
        #expect(wiped["content"] == [["type": "text", "text": "wiped tmp"]])
        await #expect {
            _ = try await skills["calc.broken"]!.run(["reason": "x"], context: context)
        } throws: { error in
            "\(error)".hasPrefix("calc.broken: tool 'broken' failed: ") && "\(error)".contains("broken")
        }
        await source.shutdown()

        // A second source (another process of Skillbook) lists them from the cache, without a server.
        let cached = try Self.source(cache: state)
        let fromCache = try #require(cached.cachedSkills())
        #expect(fromCache.skills.map(\.descriptor.id) == set.skills.map(\.descriptor.id))
        #expect(await !cached.client.isRunning)
    }

    @Test func aPlaybookOverTheToolsIsTypeCheckedFromTheOutputSchema() async throws {
        let source = try Self.source(cache: nil)
        let set = try await source.loadSkills()
        await source.shutdown()
        let loader = PlaybookLoader(registry: try SkillRegistry(set.skills))
        let good = """
            name: sums
            steps:
              - id: first
                skill: calc.add
                with: { a: 2, b: 3 }
              - id: second
                skill: calc.add
                with: { a: "${{ steps.first.output.sum }}", b: 10 }
            outputs:
              total: "${{ steps.second.output.sum }}"
            """
        #expect(loader.load(good, file: "Playbooks/sums.yaml").diagnostics.filter { $0.severity == .error }.isEmpty)
        let bad = """
            name: sums
            steps:
              - id: first
                skill: calc.add
                with: { a: 2, b: 3 }
              - id: loud
                skill: calc.shout_text
                with: { text: "${{ steps.first.output.total }}" }
            """
        let errors = loader.load(bad, file: "Playbooks/sums.yaml").diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.description.contains("total") == true)
        #expect(errors.first?.location?.line == 8)
    }
}
