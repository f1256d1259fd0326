import SkillbookCore

extension PromptBuilder {
    /// The question that asks only for the order of the steps, when the matcher's skeleton is in
    /// doubt (`PlanSkeleton.doubts`): the same system message as a plan's (a server's prompt cache
    /// keeps it), the offers as a plan lists them, and `{"steps": [ID, …]}` with each an enum of
    /// their ids (`PlanSchema.sequence`), or a question. The plan is then asked along the order
    /// the model gives (`PlanSkeleton.proposed`).
    public func sequenceQuestion(request: String, offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil) -> Question {
        let trimmed = offers.map { $0.trimmed(for: request) }
        var messages = messages(request: request, offers: trimmed)
        let last = messages.count - 1
        messages[last].content +=
            "\nFirst only the order: answer {\"steps\": [ID, ...]} with the id of the skill or playbook of each step, "
            + "one step for each thing the request asks, in the order it asks them; a step that finds or lists "
            + "things is a query, never a skill that deletes or moves them."
        return Question(
            messages: messages,
            responseFormat: PlanSchema.responseFormat(schema: PlanSchema.sequence(trimmed, minSteps: minSteps, maxSteps: maxSteps)),
            shape: nil)
    }
}
