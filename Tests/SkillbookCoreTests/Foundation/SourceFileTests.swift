#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

@testable import SkillbookCore

/// Issue 28.11: files the program parses are refused before reading when they are over
/// `Limits.sourceFileBytes` or not regular files.
@Suite struct SourceFileTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "skillbook-sourcefile-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// A file of `size` bytes (sparse: no time spent writing it).
    func file(size: Int, name: String = "play.yaml") -> String {
        let path = directory + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(size)) == 0)
        return path
    }

    @Test func aFileAtTheLimitIsReadAndOnePastItIsRefused() throws {
        #expect(Limits.sourceFileBytes == 16_777_216)
        let atLimit = file(size: Limits.sourceFileBytes)
        #expect(try SourceFile.contents(atLimit, display: "Playbooks/big.yaml")?.count == Limits.sourceFileBytes)
        let pastLimit = file(size: Limits.sourceFileBytes + 1)
        #expect(throws: SourceFile.Refusal.tooLarge(file: "Playbooks/big.yaml", limit: 16_777_216)) {
            try SourceFile.contents(pastLimit, display: "Playbooks/big.yaml")
        }
        #expect(
            SourceFile.Refusal.tooLarge(file: "Playbooks/big.yaml", limit: 16_777_216).diagnostic.description
                == "Playbooks/big.yaml: error: is larger than 16777216 bytes, the limit for a playbook, manifest, skillbook.yaml or inputs file")
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func aSmallerLimitIsHeldToTheByte() throws {
        let path = file(size: 10)
        #expect(try SourceFile.contents(path, display: "x", limit: 10) == Data(count: 10))
        #expect(throws: SourceFile.Refusal.tooLarge(file: "x", limit: 9)) { try SourceFile.contents(path, display: "x", limit: 9) }
        #expect(try SourceFile.contents(directory + "/absent.yaml", display: "absent.yaml") == nil)
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func aFIFOADeviceAndADirectoryAreRefusedUnread() throws {
        let fifo = directory + "/inputs.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SourceFile.Refusal.notRegular(file: "inputs.yaml", kind: "a FIFO")) {
            try SourceFile.contents(fifo, display: "inputs.yaml")
        }
        #expect(
            SourceFile.Refusal.notRegular(file: "inputs.yaml", kind: "a FIFO").message
                == "inputs.yaml: is a FIFO, not a regular file; only regular files are read")
        #expect(throws: SourceFile.Refusal.notRegular(file: "/dev/zero", kind: "a character device")) {
            try SourceFile.contents("/dev/zero", display: "/dev/zero")
        }
        #expect(throws: SourceFile.Refusal.notRegular(file: "d", kind: "a directory")) { try SourceFile.contents(directory, display: "d") }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
