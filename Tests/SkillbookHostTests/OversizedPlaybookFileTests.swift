import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A sub-playbook file over `Limits.sourceFileBytes` or not a regular file is reported as such,
/// not as an unknown playbook; resume reads a journaled playbook file through the same check (a
/// FIFO there used to block the read for ever).
@Suite struct OversizedPlaybookFileTests {
    static let caller = "name: caller\nsteps:\n  - { id: sub, playbook: big }\n"

    private func diagnostics(_ fixture: HostFixture) throws -> [String] {
        let host = fixture.host()
        let file = try host.loadPlaybook(at: fixture.url.appendingPathComponent("Playbooks/caller.yaml"), registry: host.loadRegistry().registry)
        return file.result.diagnostics.map(\.message)
    }

    @Test func aSubPlaybookOverTheFileLimitSaysSo() throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/caller.yaml", Self.caller)
        let big = fixture.write("Playbooks/big.yaml", "")
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(Limits.sourceFileBytes + 1))
        try handle.close()
        let messages = try diagnostics(fixture)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("step 'sub' runs playbook 'big', which is not read: ") == true)
        #expect(messages.first?.hasSuffix("big.yaml: is larger than \(Limits.sourceFileBytes) bytes, the limit for a playbook, manifest, skillbook.yaml or inputs file") == true)

        // At the limit it is read (and its NULs refused as text, not as a missing file).
        let at = try FileHandle(forWritingTo: big)
        try at.truncate(atOffset: UInt64(Limits.sourceFileBytes))
        try at.close()
        #expect(try diagnostics(fixture).allSatisfy { !$0.contains("not read") && !$0.contains("unknown playbook") })
    }

    @Test func aSubPlaybookThatIsAFIFOSaysSo() throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/caller.yaml", Self.caller)
        #expect(mkfifo(fixture.url.appendingPathComponent("Playbooks/big.yaml").path, 0o600) == 0)
        let messages = try diagnostics(fixture)
        #expect(messages.count == 1)
        #expect(messages.first?.hasSuffix("big.yaml: is a FIFO, not a regular file; only regular files are read") == true)
    }

    @Test func aSubPlaybookThatIsNotThereIsUnknown() throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/caller.yaml", Self.caller)
        #expect(try diagnostics(fixture) == ["step 'sub' runs unknown playbook 'big'"])
    }

    /// The run's file replaced by a FIFO: resume does not open it for reading (which blocked) but
    /// runs the recorded text, and says so.
    @Test func resumeReadsTheJournaledFileThroughTheSameCheck() async throws {
        let fixture = HostFixture()
        fixture.write("Playbooks/save-then-read.yaml", PlaybookHostTests.saveThenRead)
        let host = fixture.host()
        let failed = try await fixture.driving { try await host.run(RunRequest(playbook: "save-then-read")) }
        #expect(failed.status == .failed)
        fixture.remove("Playbooks/save-then-read.yaml")
        #expect(mkfifo(fixture.url.appendingPathComponent("Playbooks/save-then-read.yaml").path, 0o600) == 0)
        fixture.write("flag.txt", "there")
        let notices = NoticeLog()
        let resumed = try await host.resume(ResumeRequest(run: failed.runID), onNotice: notices.handler)
        #expect(resumed.status == .succeeded)
        guard case .resumingWithRecordedText? = notices.all.first else {
            Issue.record("no notice of the recorded text: \(notices.all)")
            return
        }
    }
}
