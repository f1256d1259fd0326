public import SkillbookAgent
public import SkillbookCore

/// What the agent routes over, built once per request (or chat) from a host: the registry, the
/// workspace's playbooks that load without errors, the matcher over both, and the offers a model
/// may plan with. A playbook file with errors is left out (`skillbook validate` reports it).
public struct AgentWorkspace: Sendable {
    public let registry: SkillRegistry
    public let playbooks: [Playbook]
    public let library: PlaybookLibrary
    public let matcher: Matcher
    /// Every skill and playbook as the model would see it (the prompt takes at most 20).
    public let offers: [PlanOffer]
    /// The secrets this request or chat knows: those at hand when it was built
    /// (`SecretResolver.valuesAtHand`), then each answer to a secret input and each value a run of
    /// it read from a provider. Masked in every request sent to a model and in what is shown back.
    /// Shared by every copy (the flow, the planner, the runner).
    public let secrets = SecretBook()

    public init(registry: SkillRegistry, playbooks: [Playbook], library: PlaybookLibrary = .empty) {
        self.registry = registry
        self.playbooks = playbooks
        self.library = library
        let targets = playbooks.map(RouteTarget.init(playbook:)) + registry.descriptors.map(RouteTarget.init(skill:))
        matcher = Matcher(targets: targets)
        offers = playbooks.map(PlanOffer.init(playbook:)) + registry.descriptors.map(PlanOffer.init(skill:))
    }

    /// The decision for `request` at `clock`: layers 1 and 2, or plan-shaped, or none.
    public func decide(_ request: String, clock: Matcher.ReferenceTime) -> RouteDecision {
        matcher.decide(request, clock: clock)
    }

    /// The checker model plans go through, resolving date phrases against `clock`.
    public func checker(clock: Matcher.ReferenceTime) -> PlanChecker {
        let inputs = Dictionary(
            playbooks.map { playbook in
                let properties = playbook.inputs.map { ($0.name, $0.schema) }
                return (
                    playbook.name,
                    Schema(type: .object, properties: properties, required: playbook.inputs.filter(\.isRequired).map(\.name))
                )
            }, uniquingKeysWith: { a, _ in a })
        return PlanChecker(
            registry: registry, library: library, coercion: Coercion(dates: DateParser(now: clock.now, timeZone: clock.timeZone)),
            playbookInputs: inputs)
    }

    /// A planner on `settings`' server over `http`, at `clock`: its prompt and every message it
    /// sends (repairs too) masked with `secrets` as they stand when it asks.
    public func planner(_ settings: ModelSettings, http: any HTTPClient, clock: Matcher.ReferenceTime) -> Planner {
        let client = OpenAIChatClient(http: http, baseURL: settings.url, model: settings.model, apiKey: settings.apiKey)
        return Planner(
            client: MaskedChatClient(client, secrets: secrets), checker: checker(clock: clock),
            prompt: PromptBuilder(now: clock.now, timeZone: clock.timeZone, redactor: secrets.redactor),
            budget: settings.budget)
    }

    /// Whether a skill or playbook is an action (anything not a read-only query; playbooks count as actions).
    public func isAction(_ target: String, isPlaybook: Bool) -> Bool {
        if isPlaybook { return true }
        return registry[target].map { $0.descriptor.kind != .query } ?? true
    }
}
