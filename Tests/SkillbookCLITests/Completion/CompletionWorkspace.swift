import Foundation
import SkillbookCLI
import SkillbookTesting

/// A workspace with two playbooks (`greet` takes inputs `name` and `loud`) for the completion tests.
func completionWorkspace() -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    directory.write(
        "Playbooks/greet.yaml",
        """
        name: greet
        description: Greets someone.
        inputs:
          name: { type: string, description: Who to greet. }
          loud: { type: boolean, default: false }
        steps:
          - id: note
            skill: notes.create
            with:
              title: "${{ inputs.name }}"

        """)
    directory.write("Playbooks/goodbye.yaml", "name: goodbye\nsteps:\n  - { id: a, skill: notes.list }\n")
    return directory
}

/// `skillbook __complete WORDS…` in-process in `directory`: the candidates (words only) and the
/// directive line's number.
func complete(_ words: [String], in directory: TemporaryDirectory) async -> (words: [String], directive: String) {
    let captured = CapturedOutput()
    _ = await SkillbookCLI.run(["__complete"] + words, console: captured.console, environment: [:], currentDirectory: directory.url)
    var lines = captured.out.split(separator: "\n").map(String.init)
    let directive = lines.popLast() ?? ""
    return (lines.map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }, directive)
}
