#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkillbookMCP

/// Two pipes joining a test to a server in this process: what the test writes the server reads.
struct PipePair {
    let serverSide: LineChannel
    let testSide: LineChannel

    init(serverLineLimit: Int = LineChannel.maximumLineLength) {
        let toServer = privatePipe()
        let toTest = privatePipe()
        serverSide = LineChannel(input: toServer[0], output: toTest[1], closesDescriptors: true, lineLimit: serverLineLimit)
        testSide = LineChannel(input: toTest[0], output: toServer[1], closesDescriptors: true)
    }
}

/// A pipe (read end, write end) that no child inherits: a copy of its write end in a child that
/// another test starts meanwhile would keep the reader here from ever seeing the end of input.
func privatePipe() -> [Int32] {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0, "pipe failed")
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fds
}
