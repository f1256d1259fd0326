import Synchronization
import SkillbookCore

/// What a `stepProgress` event counts.
public enum ProgressUnit: Sendable, Hashable {
    /// The step's calls are batches of one list: `items` of its `of` items are done.
    case batches(items: Int, of: Int)
    /// The step's calls are one per `foreach` element (and its batches, if it batches too).
    case iterations
    /// The skill's own count inside one call (files moved so far), as it reports it.
    case skill
}

/// Counts completed calls of one step, across concurrent tasks, and for a batched step the items
/// of the driving list they carried.
final class Progress: Sendable {
    let total: Int
    /// The list parameter whose items are counted (a batched step without `foreach`).
    let driver: String?
    let totalItems: Int
    private let done = Mutex((calls: 0, items: 0))

    init(total: Int, driver: String? = nil, totalItems: Int = 0) {
        self.total = total
        self.driver = driver
        self.totalItems = totalItems
    }

    /// How many items of the driving list a call with `parameters` carries.
    func items(in parameters: ValueObject) -> Int {
        driver.flatMap { parameters[$0]?.arrayValue?.count } ?? 0
    }

    /// One more call done, carrying `items` items: the calls and items done so far.
    func advance(items: Int) -> (calls: Int, items: Int) {
        done.withLock {
            $0.calls += 1
            $0.items += items
            return $0
        }
    }

    /// What the counts are of.
    func unit(items: Int) -> ProgressUnit {
        driver == nil ? .iterations : .batches(items: items, of: totalItems)
    }
}
