import Synchronization

/// Counts completed calls of one step, across concurrent tasks.
final class Progress: Sendable {
    let total: Int
    private let done = Mutex(0)

    init(total: Int) {
        self.total = total
    }

    func advance() -> Int {
        done.withLock {
            $0 += 1
            return $0
        }
    }
}
