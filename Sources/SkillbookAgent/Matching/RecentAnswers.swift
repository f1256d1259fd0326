import Synchronization

/// The last few answers of a pure function of a text. One check of a model's plan asks the same
/// questions of one request again and again — its clauses, the paths and addresses it names — once
/// per lint; each would otherwise split the request anew (a third of a plan check's time).
final class RecentAnswers<Answer: Sendable>: Sendable {
    private let kept = Mutex<[(question: String, answer: Answer)]>([])
    private let capacity: Int

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// `make(question)`, or the answer it gave when `question` was among the last asked.
    func answer(_ question: String, _ make: (String) -> Answer) -> Answer {
        if let known = kept.withLock({ $0.first { $0.question == question }?.answer }) { return known }
        let made = make(question)
        kept.withLock { recent in
            recent.insert((question, made), at: 0)
            if recent.count > capacity { recent.removeLast() }
        }
        return made
    }
}
