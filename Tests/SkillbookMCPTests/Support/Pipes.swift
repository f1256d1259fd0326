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

    init() {
        var toServer: [Int32] = [0, 0]
        var toTest: [Int32] = [0, 0]
        precondition(pipe(&toServer) == 0 && pipe(&toTest) == 0, "pipe failed")
        serverSide = LineChannel(input: toServer[0], output: toTest[1], closesDescriptors: true)
        testSide = LineChannel(input: toTest[0], output: toServer[1], closesDescriptors: true)
    }
}
