#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// Issue 28.11: playbooks, manifests, `skillbook.yaml` and `--inputs` files over
/// `Limits.sourceFileBytes`, or not regular files, are refused unread, naming the file and the limit.
@Suite struct FileLimitTests {
    static let tooLarge = "error: is larger than 16777216 bytes, the limit for a playbook, manifest, skillbook.yaml or inputs file"

    /// Grows `name` in `directory` to `size` bytes (sparse).
    func grow(_ directory: TemporaryDirectory, _ name: String, to size: Int) {
        let url = directory.write(name, "")
        #expect(truncate(url.path, off_t(size)) == 0)
    }

    @Test func aPlaybookOverTheLimitIsRefused() async {
        let directory = TemporaryDirectory()
        grow(directory, "big.yaml", to: Limits.sourceFileBytes + 1)
        let run = await skillbook(["validate", "big.yaml"], in: directory)
        #expect(run.code != 0)
        #expect(run.err.contains("big.yaml: " + Self.tooLarge), "\(run.err)")
    }

    @Test func anInputsFileThatIsAFIFOIsRefused() async {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/p.yaml", "name: p\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n")
        #expect(mkfifo(directory.url.appendingPathComponent("inputs.yaml").path, 0o600) == 0)
        let run = await skillbook(["run", "p", "--inputs", "inputs.yaml"], in: directory)
        #expect(run.code == 2)
        #expect(run.err.contains("inputs.yaml: error: is a FIFO, not a regular file; only regular files are read"), "\(run.err)")
    }

    /// Given by its path, a FIFO had been opened for reading (to look for a `# workspace:` line)
    /// before any check, and `validate` and `run` waited for a writer for ever.
    @Test func aPlaybookGivenByAPathThatIsAFIFOIsRefused() async {
        let directory = TemporaryDirectory()
        directory.write("Playbooks/p.yaml", "name: p\nsteps:\n  - { id: a, skill: debug.echo, with: { value: 1 } }\n")
        #expect(mkfifo(directory.url.appendingPathComponent("Playbooks/fifo.yaml").path, 0o600) == 0)
        for command in [["validate", "Playbooks/fifo.yaml"], ["run", "Playbooks/fifo.yaml"]] {
            let run = await skillbook(command, in: directory)
            #expect(run.code == 2, "\(command): \(run.err)")
            #expect(run.err.contains("fifo.yaml: error: is a FIFO, not a regular file; only regular files are read"), "\(command): \(run.err)")
        }
    }

    @Test func aSkillbookYAMLOverTheLimitIsRefused() async {
        let directory = TemporaryDirectory()
        grow(directory, "skillbook.yaml", to: Limits.sourceFileBytes + 1)
        let run = await skillbook(["list"], in: directory)
        #expect(run.code == 2)
        #expect(run.err.contains("skillbook.yaml: " + Self.tooLarge), "\(run.err)")
    }

    @Test func aManifestOverTheLimitIsRefused() async {
        let directory = TemporaryDirectory()
        grow(directory, "Skills/big.yaml", to: Limits.sourceFileBytes + 1)
        let run = await skillbook(["skills"], in: directory)
        #expect(run.err.contains("big.yaml: " + Self.tooLarge), "\(run.err)")
    }
}
