public import SkillbookRuntime
import Synchronization

/// Collects run events in order, for assertions.
public final class EventRecorder: Sendable {
    private let storage = Mutex<[RunEvent]>([])

    public init() {}

    public var events: [RunEvent] { storage.withLock { $0 } }
    public var types: [String] { events.map(\.type) }

    public var handler: RunEventHandler {
        { event in self.storage.withLock { $0.append(event) } }
    }
}

/// A thread-safe list of values a fake appends to.
public final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    public init() {}

    public var values: [Element] { storage.withLock { $0 } }

    public func append(_ value: Element) {
        storage.withLock { $0.append(value) }
    }
}
