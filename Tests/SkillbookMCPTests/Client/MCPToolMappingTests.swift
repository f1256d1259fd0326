import Foundation
import SkillbookCore
import Testing

@testable import SkillbookMCP

@Suite struct MCPToolMappingTests {
    @Test(arguments: [("add", "calc.add"), ("Add-Numbers", "calc.add_numbers"), ("get.weather v2", "calc.get_weather_v2"), ("Ünïcode", "calc._n_code")])
    func idsAreThePrefixAndTheLowercasedName(tool: String, id: String) {
        #expect(MCPToolMapping.skillID(prefix: "calc", tool: tool) == id)
    }

    static func tool(_ name: String, _ hints: MCPToolAnnotations = MCPToolAnnotations(), output: Value? = nil) -> MCPTool {
        MCPTool(name: name, description: "Does \(name).", inputSchema: ["type": "object"], outputSchema: output, annotations: hints)
    }

    @Test func kindAndConfirmationFollowTheAnnotations() {
        let tools = [
            Self.tool("read", MCPToolAnnotations(readOnlyHint: true)),
            Self.tool("append", MCPToolAnnotations(readOnlyHint: false, destructiveHint: false, idempotentHint: true)),
            Self.tool("delete"),
        ]
        let (descriptors, warnings) = MCPToolMapping.descriptors(for: tools, prefix: "fs", timeout: 12)
        #expect(warnings.isEmpty)
        #expect(descriptors.map(\.id) == ["fs.read", "fs.append", "fs.delete"])
        #expect(descriptors.map(\.kind) == [.query, .action, .action])
        #expect(descriptors.map(\.confirm) == [false, false, true])
        #expect(descriptors.map(\.idempotent) == [true, true, false])
        #expect(descriptors.allSatisfy { $0.timeout == 12 })
        #expect(descriptors[2].output == MCPToolMapping.unstructuredOutput)
    }

    @Test func invalidAndCollidingIDsAreLeftOutWithWarnings() {
        let (descriptors, warnings) = MCPToolMapping.descriptors(
            for: [Self.tool("2fa"), Self.tool("Add"), Self.tool("add")], prefix: "x", timeout: 30)
        #expect(descriptors.map(\.id) == ["x.add"])
        #expect(
            warnings == [
                "tool '2fa' maps to 'x.2fa', which is not a valid skill id; it is left out",
                "tools 'Add' and 'add' both map to 'x.add'; 'add' is left out",
            ])
    }

    @Test func schemasOutsideTheSubsetAreToleratedWithWarnings() {
        let input: Value = [
            "type": "object", "title": "Args",
            "properties": [
                "when": ["anyOf": [["type": "string", "format": "date"], ["type": "null"]], "default": nil],
                "size": ["$ref": "#/$defs/Size"],
                "mode": ["const": "fast"],
                "either": ["oneOf": [["type": "string"], ["type": "integer"]]],
                "ratio": ["type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5],
                "tags": ["type": ["array", "null"], "items": ["type": "string", "format": "hostname"]],
            ],
            "required": ["size"],
            "$defs": ["Size": ["type": "integer", "minimum": 1, "title": "Size"]],
        ]
        let tool = MCPTool(name: "t", description: "", inputSchema: input)
        let (descriptors, warnings) = MCPToolMapping.descriptors(for: [tool], prefix: "p", timeout: 30)
        let parameters = descriptors[0].parameters
        #expect(parameters.property("when")?.type == .string)
        #expect(parameters.property("when")?.format == "date")
        #expect(parameters.property("size")?.type == .integer)
        #expect(parameters.property("size")?.minimum == 1)
        #expect(parameters.property("mode")?.enumValues == ["fast"])
        #expect(parameters.property("either")?.type == nil)
        #expect(parameters.property("ratio")?.minimum == 0)
        #expect(parameters.property("tags")?.type == .array)
        #expect(parameters.required == ["size"])
        #expect(
            warnings == [
                "p.t: inputSchema.properties.either: 'oneOf' of 2 schemas is not checked; any value is accepted here",
                "p.t: inputSchema.properties.ratio: 'exclusiveMinimum' is checked as 'minimum' (inclusive)",
                "p.t: inputSchema.properties.ratio: 'multipleOf' is not checked",
                #"p.t: inputSchema.properties.tags.items: 'format' "hostname" is not checked"#,
            ])
        #expect(descriptors[0].summary == "The tool 't' of an MCP server.")
    }

    /// Issue 28.8: `{"$ref": "#"}` in three properties expanded exponentially (6.4 GB); now each is
    /// one warning and a property of any type, as the playbook checker reads `$ref` cycles.
    @Test func aSelfReferenceIsOneWarningAndAnyType() {
        let input: Value = [
            "type": "object",
            "properties": ["a": ["$ref": "#"], "b": ["$ref": "#"], "c": ["$ref": "#"], "n": ["$ref": "#/$defs/Node"]],
            "$defs": ["Node": ["type": "object", "properties": ["next": ["$ref": "#/$defs/Node"], "value": ["type": "integer"]]]],
        ]
        let (descriptors, warnings) = MCPToolMapping.descriptors(for: [MCPTool(name: "t", description: "", inputSchema: input)], prefix: "p", timeout: 30)
        let parameters = descriptors[0].parameters
        #expect(parameters.properties.map(\.name) == ["a", "b", "c", "n"])
        for name in ["a", "b", "c"] { #expect(parameters.property(name)?.type == nil) }
        #expect(parameters.property("n")?.type == .object)
        #expect(parameters.property("n")?.property("value")?.type == .integer)
        #expect(parameters.property("n")?.property("next")?.type == nil)
        #expect(
            warnings == [
                "p.t: inputSchema.properties.a: '$ref' # leads back to itself (# → #/properties/a → #); recursive schemas are not supported; any value is accepted here",
                "p.t: inputSchema.properties.b: '$ref' # leads back to itself (# → #/properties/b → #); recursive schemas are not supported; any value is accepted here",
                "p.t: inputSchema.properties.c: '$ref' # leads back to itself (# → #/properties/c → #); recursive schemas are not supported; any value is accepted here",
                "p.t: inputSchema.properties.n.properties.next: '$ref' #/$defs/Node leads back to itself (#/$defs/Node → #/$defs/Node/properties/next → #/$defs/Node); recursive schemas are not supported; any value is accepted here",
            ])
    }

    /// A schema whose definitions each use the next twice is read once per definition, not 2¹² times.
    @Test func sharedDefinitionsAreReadOnce() {
        var defs = ValueObject()
        for i in 0..<12 {
            defs["D\(i)"] = ["type": "object", "properties": ["x": ["$ref": .string("#/$defs/D\(i + 1)")], "y": ["$ref": .string("#/$defs/D\(i + 1)")]]]
        }
        defs["D12"] = ["type": "string", "format": "nonsense"]
        let input: Value = ["type": "object", "properties": ["root": ["$ref": "#/$defs/D0"]], "$defs": .object(defs)]
        let (descriptors, warnings) = MCPToolMapping.descriptors(for: [MCPTool(name: "t", description: "", inputSchema: input)], prefix: "p", timeout: 30)
        #expect(descriptors[0].parameters.property("root")?.property("y")?.type == .object)
        #expect(warnings.count == 1)
    }

    @Test func aToolListCacheIsKeptPerManifestAndCommand() throws {
        let directory = try Paths.temporaryDirectory()
        let command = MCPServerCommand(["python3", "server.py"])
        let cache = MCPToolListCache(directory: directory, prefix: "calc", manifest: "/w/Skills/calc.yaml", command: command)
        #expect(cache.load() == nil)
        let tools = [Self.tool("add", MCPToolAnnotations(readOnlyHint: true), output: ["type": "object"])]
        try cache.save(tools)
        #expect(cache.file.hasPrefix(directory + "/mcp/calc-"))
        #expect(cache.file.hasSuffix(".json"))
        #expect(cache.load() == tools)
        #expect(MCPToolListCache(directory: directory, prefix: "calc", manifest: "/w/Skills/calc.yaml", command: command).load() == tools)
        let otherCommand = MCPToolListCache(
            directory: directory, prefix: "calc", manifest: "/w/Skills/calc.yaml", command: MCPServerCommand(["python3", "other.py"]))
        #expect(otherCommand.file != cache.file)
        #expect(otherCommand.load() == nil)
        let otherManifest = MCPToolListCache(directory: directory, prefix: "calc", manifest: "/v/Skills/calc.yaml", command: command)
        #expect(otherManifest.file != cache.file)
        #expect(otherManifest.load() == nil)
        // A file written for another key under this name (a collision, a copy) is not believed.
        try FileManager.default.copyItem(atPath: cache.file, toPath: otherManifest.file)
        #expect(otherManifest.load() == nil)
    }

    @Test func aToolGetsExamplesFromItsNameTitleAndDescription() {
        let tool = MCPTool(
            name: "get_forecast", title: "Weather forecast", description: "Gets the forecast for a city. Uses a public API.",
            inputSchema: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
        let (descriptors, _) = MCPToolMapping.descriptors(for: [tool], prefix: "w", timeout: 30)
        #expect(descriptors[0].examples == [
            "get forecast", "weather forecast", "gets the forecast for a city", "get forecast {city}", "weather forecast {city}",
        ])
    }
}

