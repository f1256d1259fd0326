import SkillbookTesting
import SkillbookCore
import Foundation
import Testing

/// `--allow-path DIR` lets file skills reach a folder besides the current and state directories.
@Suite struct AllowPathTests {
    @Test func fileSkillsReachAnotherFolderOnlyWhenAllowed() async throws {
        let directory = TemporaryDirectory()
        let other = TemporaryDirectory()
        other.write("shared/note.txt", "from elsewhere")
        directory.write(
            "Playbooks/read-file.yaml",
            """
            name: read-file
            inputs:
              file: { type: string }
            steps:
              - id: read
                skill: files.read
                with: { path: "${{ inputs.file }}" }
            outputs:
              text: "${{ steps.read.output.content }}"
            """)
        let file = other.path + "/shared/note.txt"
        let refused = await skillbook(["run", "read-file", "-i", "file=\(file)"], in: directory)
        #expect(refused.code == 1)
        #expect(
            refused.err.contains(
                "path '\(file)' is outside the allowed folders (\(directory.path), \(directory.state.path)); "
                    + "pass --allow-path DIR to allow another"))

        let allowed = await skillbook(["run", "read-file", "-i", "file=\(file)", "--allow-path", other.path + "/shared"], in: directory)
        #expect(allowed.code == 0, "\(allowed.err)")
        #expect(allowed.out.contains("from elsewhere"))

        let help = await skillbook(["run", "--help"], in: directory)
        #expect(help.out.contains("--allow-path DIR"))
    }
}
