public import SkillbookAgent
import Synchronization

/// The person of `ask --explain --json`: nobody answers (`.unavailable`), and the steps the flow
/// reports are kept, so a caller can tell whether a request reached the model planner.
public final class PlanningProbe: AgentAsking {
    private let steps = Mutex<[String]>([])

    public init() {}

    /// Whether the flow asked the model to plan.
    public var reachedPlanner: Bool { steps.withLock { $0.contains("planning") } }

    public func input(_ question: AgentInputQuestion) async -> AgentReply<String> { .unavailable }
    public func confirm(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> { .unavailable }
    public func approve(_ run: PendingRun, actions: [Plan.Step]) async -> AgentReply<Bool> { .unavailable }

    public func note(_ step: AgentStep) async throws {
        if case .planning = step { steps.withLock { $0.append("planning") } }
    }
}
