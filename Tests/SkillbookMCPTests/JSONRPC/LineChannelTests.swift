#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

@testable import SkillbookMCP

@Suite struct LineChannelTests {
    @Test func splitsLinesAcrossWritesAndKeepsALastLineWithoutNewline() async {
        let fds = privatePipe()
        let channel = LineChannel(input: fds[0], output: -1, closesDescriptors: true)
        channel.start()
        for chunk in ["{\"a\":", "1}\r\n\n  \n{\"b\"", ":2}\nlast"] {
            _ = chunk.withCString { write(fds[1], $0, strlen($0)) }
        }
        close(fds[1])
        var lines: [String] = []
        for await line in channel.lines { lines.append(line) }
        #expect(lines == [#"{"a":1}"#, #"{"b":2}"#, "last"])
    }

    @Test func sendReportsAGoneReader() {
        let fds = privatePipe()
        let channel = LineChannel(input: -1, output: fds[1], closesDescriptors: true)
        #expect(channel.send("one"))
        close(fds[0])
        #expect(!channel.send("two"))
        channel.closeOutput()
        #expect(!channel.send("three"))
    }
}
