import Foundation
import SkillbookHost
import SkillbookTesting
import Testing

/// Signals to this test process: SIGUSR1/SIGUSR2 stand in for SIGINT/SIGTERM (the watcher ignores
/// them while it listens, so the process survives them).
@Suite(.serialized) struct ShutdownSignalTests {
    @Test func theFirstSignalShutsDownAndASecondOneIsARepeat() async throws {
        let shutdowns = Recorder<Int32>()
        let repeats = Recorder<Int32>()
        let watcher = ShutdownSignal(
            signals: [SIGUSR1], onShutdown: { shutdowns.append($0) }, onRepeat: { repeats.append($0) })
        kill(getpid(), SIGUSR1)
        #expect(await eventually(within: 5) { shutdowns.values.count == 1 })
        kill(getpid(), SIGUSR1)
        #expect(await eventually(within: 5) { repeats.values.count == 1 })
        #expect(shutdowns.values == [SIGUSR1])
        watcher.stop()
    }

    @Test func aSignalCancelsTheOperation() async throws {
        let announced = Recorder<Int32>()
        let started = Recorder<Bool>()
        let signaller = Task {
            _ = await eventually(within: 5) { !started.values.isEmpty }
            kill(getpid(), SIGUSR2)
        }
        let outcome = await ShutdownSignal.cancellingOnSignal(signals: [SIGUSR2], announce: { announced.append($0) }) {
            started.append(true)
            do {
                try await Task.sleep(for: .seconds(30))
                return "finished"
            } catch {
                return "cancelled"
            }
        }
        _ = await signaller.value
        #expect(outcome == "cancelled")
        #expect(announced.values == [SIGUSR2])
    }

    /// The handler is in place before the operation starts: a signal the operation's very first
    /// step raises still cancels it (SIGURG, whose default is to be ignored, is watched by no
    /// other test, so nothing installed its handler earlier).
    @Test func aSignalAsTheOperationBeginsCancelsIt() async throws {
        let outcome = await ShutdownSignal.cancellingOnSignal(signals: [SIGURG]) {
            kill(getpid(), SIGURG)
            do {
                try await Task.sleep(for: .seconds(5))
                return "finished"
            } catch {
                return "cancelled"
            }
        }
        #expect(outcome == "cancelled")
    }
}

