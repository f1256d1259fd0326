import Foundation

/// How another process tells the daemon of a state that a run the daemon started and left waiting
/// was decided: `SIGUSR1` to the pid in `<state>/daemon.pid`. The daemon watches for it from before
/// it takes its lock (`DaemonLock`), so the signal never ends a daemon that has not started watching;
/// the daemon also looks every 2 s, so a wake that is lost (the decider killed before sending it)
/// only delays the run.
public final class DaemonWake: Sendable {
    public static let signal = SIGUSR1

    private let id: Int

    /// Calls `onWake` on every wake until `stop()` (on a thread of its own: keep it short).
    public init(onWake: @escaping @Sendable () -> Void) {
        id = SignalPipe.shared.add(signals: [Self.signal]) { _ in onWake() }
    }

    public func stop() {
        SignalPipe.shared.remove(id)
    }

    deinit {
        stop()
    }

    /// Makes the wake signal harmless to this process (written to the signal pipe, handed to no one
    /// until someone watches): what a daemon does before it takes its lock.
    public static func install() {
        SignalPipe.shared.remove(SignalPipe.shared.add(signals: [signal]) { _ in })
    }

    /// Wakes the daemon whose pid is `pid`; false when the signal could not be sent.
    @discardableResult
    public static func send(to pid: Int32) -> Bool {
        pid > 0 && kill(pid, signal) == 0
    }
}
