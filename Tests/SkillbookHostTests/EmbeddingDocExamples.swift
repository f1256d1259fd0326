// The swift blocks of docs/embedding.md, in order, separated by the marker line below; compiled
// with SkillbookHostTests and run by EmbeddingDocTests, which fails when this file and the page
// differ. Edit both together.

// --- docs/embedding.md block ---
import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime

/// A host on the workspace that holds `folder`, refusing every step that asks for confirmation.
func makeHost(in folder: URL, environment: [String: String]) throws -> PlaybookHost {
    var configuration = try HostConfiguration.discover(currentDirectory: folder, environment: environment)
    configuration.confirmation = .refuse(reason: "no one to ask")   // or .approveAll, or .ask(confirmer)
    return PlaybookHost(configuration)
}

// --- docs/embedding.md block ---
/// Runs `hello-notes` with name=Ada, printing each event as the JSON line `run --json` prints.
func runHelloNotes(with host: PlaybookHost) async throws -> RunResult {
    let prepared = try await host.prepareRun(RunRequest(playbook: "hello-notes", inputTexts: [("name", "Ada")]))
    let handle = host.start(prepared)
    for await event in handle.events {
        print(RunEventJSON.line(event))
    }
    return await handle.result.value
}

// --- docs/embedding.md block ---
/// The ten newest notes, as `notes.list` returns them ({ items, count }).
func listNotes(with host: PlaybookHost) async throws -> Value? {
    let prepared = try await host.prepareCall(CallRequest(skill: "notes.list", inputTexts: [("limit", "10")]))
    let result = await host.execute(prepared)
    return result.outputs["output"]
}

// --- docs/embedding.md block ---
/// Undoes the newest run that did something, approved without asking (`rollback --last --yes`).
func undoNewestRun(with host: PlaybookHost) async throws -> RunResult {
    try await host.rollback(.last, approval: .approveAll)
}

/// Goes on with an interrupted run, counting an action left in doubt as done.
func resumeRun(_ id: String, with host: PlaybookHost) async throws -> RunResult {
    try await host.resume(ResumeRequest(run: id, uncertain: .skip))
}
