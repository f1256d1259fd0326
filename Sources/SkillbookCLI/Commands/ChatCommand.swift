import SkillbookAgent
import SkillbookHost

/// `skillbook chat [--now ISO] [--timezone ZONE]`
enum ChatCommand: Command {
    static let spec = CommandSpec(
        name: "chat", summary: "Talk to the agent: requests, questions, confirmations, runs.", arguments: "",
        options: [Option.now.spec, Option.timezone.withHelp("The time zone of relative dates (default: the machine's).").spec],
        discussion: """
            A terminal loop over the agent session: each line is a request, routed as 'skillbook ask'
            routes it (playbook triggers, skill examples, then the model when SKILLBOOK_MODEL_URL is set).
            The agent asks for missing inputs (an answer that does not fit the input is asked again)
            and shows what would change something; answer y to run it, n to keep it for later. A
            read-only query runs at once. Runs show their steps as they go and are journaled (trigger 'chat');
            Ctrl-C cancels the running one (rolled back) and the chat goes on.
            /skills lists the skill cards, /playbooks the playbooks, /history the conversation,
            /help this, /quit (or end of input) leaves.
            """,
        examples: ["skillbook chat", "printf 'list my notes\\n' | skillbook chat"])

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let clock = try AskClock.make(now: arguments[.now], timezone: arguments[.timezone], command: spec.name)
        let given = try invocation.host(arguments)
        var configuration = given.configuration
        configuration.timeZone = clock.timeZone
        // The same MCP servers as the invocation's, so that they are stopped when it ends.
        let host = PlaybookHost(configuration, mcpServers: given.mcpServers)
        let workspace = try await host.agentWorkspace(onNotice: invocation.notices())
        return await ChatLoop.run(host: host, workspace: workspace, invocation: invocation, clock: clock, fixedClock: arguments[.now] != nil)
    }
}
