import SkillbookCore
import SkillbookHost

extension Option where Value == String {
    static var tools: Self {
        Self("--tools", value: "KIND", help: "Which tools to serve: playbooks, skills or all (default all).")
            .values(.choices(MCPToolSelection.allCases.map(\.rawValue)))
    }
}

/// `skillbook mcp [--tools playbooks|skills|all] [--yes]`
enum MCPCommand: Command {
    static let spec = CommandSpec(
        name: "mcp", summary: "Serve playbooks and skills as MCP tools on stdin/stdout.", arguments: "",
        options: [Option.tools.spec, Option.yes.withHelp("Run calls that need confirmation without asking.").spec] + OperationOptions.logOptions,
        positionals: 0...0,
        discussion: """
            Speaks the Model Context Protocol over stdio: one JSON-RPC message per line on stdout, nothing
            else; side notes on stderr. Every playbook is a tool named as 'skillbook run NAME' takes it, every
            skill a tool named by its id. Calls run on the engine and are journaled (trigger mcp); a call that
            needs confirmation asks through the client's elicitation, or is refused unless --yes.
            Exits when stdin closes, or on SIGTERM after rolling back running calls.
            """,
        examples: ["skillbook mcp", "skillbook mcp --tools playbooks --playbooks ~/notes/Playbooks"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let text = arguments[.tools] ?? "all"
        guard let selection = MCPToolSelection(rawValue: text) else {
            let names = MCPToolSelection.allCases.map(\.rawValue)
            let hint = Suggestion.closest(to: text, in: names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(message: "--tools expects one of \(names.joined(separator: ", ")), got '\(text)'\(hint)", command: spec.name)
        }
        let log = try OperationOptions(arguments, invocation, command: spec.name, prefix: "skillbook mcp", metrics: false).logger
        let host = try invocation.host(arguments, confirmation: arguments[.yes] ? .approveAll : nil)
        await host.listUncachedMCPServers()
        _ = try host.loadRegistry(reporting: invocation.notices(manifestWarnings: true))
        let server = MCPService(host: host, tools: selection, approveAll: arguments[.yes], version: SkillbookCLI.version, log: log)
        return try await invocation.runServices([server], grace: 30) { event in
            switch event {
            case .gracefulShutdown(let number): log("signal \(number): stopping")
            case .cancelled(let number): log("signal \(number): stopping now")
            case .graceOver, .serviceEnded: break
            }
        }
    }
}
