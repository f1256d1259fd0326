import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookPostgres
import SkillbookTesting
import Testing

/// A claimed run that cannot start is recorded as failed; when that record cannot be written
/// either, the worker is told so (it was lost without a word), on a real PostgreSQL state.
@Suite struct ClaimedRunRecordingTests {
    @Test func aFailureThatCannotBeRecordedIsSaid() async throws {
        let directory = TemporaryDirectory()
        let file = directory.write("Playbooks/note.yaml", "name: note\nsteps:\n  - { id: a, skill: notes.create, with: { title: one } }\n")
        let url = try await PostgresCluster.freshDatabase()
        let host = PlaybookHost(HostConfiguration.workspace(in: directory.url, environment: [:], state: url))
        let runID = try await host.enqueue(RunRequest(playbook: file.path, trigger: "cli"))
        // The file changed since the run was queued: the run cannot start.
        directory.write("Playbooks/note.yaml", "name: note\nsteps:\n  - { id: a, skill: notes.create, with: { title: two } }\n")
        let database = try PostgresDatabase(#require(PostgresURL(url)))
        _ = try database.run(
            """
            CREATE FUNCTION refuse_failed() RETURNS trigger AS $$
            BEGIN IF NEW.status = 'failed' THEN RAISE EXCEPTION 'the disk says no'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql
            """)
        _ = try database.run("CREATE TRIGGER refuse_failed BEFORE UPDATE ON runs FOR EACH ROW EXECUTE FUNCTION refuse_failed()")
        let journal = PostgresJournal(database: database, heartbeatInterval: 3600, leaseDuration: 60, worker: "w")
        let claimed = try #require(try journal.claimNext())
        #expect(claimed.run.id == runID)
        guard case .needsPerson(let reason) = await host.prepareClaimed(claimed, journal: journal) else {
            Issue.record("the run should not start")
            return
        }
        #expect(reason.hasPrefix("run \(runID) could not be started: "), "\(reason)")
        #expect(reason.contains("recording that failed too"), "\(reason)")
        #expect(reason.contains("the disk says no"), "\(reason)")
    }
}
