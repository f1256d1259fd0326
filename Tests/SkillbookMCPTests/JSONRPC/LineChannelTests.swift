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

    /// Issue 28.10: a line at the limit is a line; one past it is yielded cut (one byte over the
    /// limit, so the reader answers a parse error) and its tail, to the newline, is never a line.
    @Test func anOverLongLineIsCutAndItsTailDiscarded() async {
        let fds = privatePipe()
        let channel = LineChannel(input: fds[0], output: -1, closesDescriptors: true, lineLimit: 16)
        channel.start()
        let smuggled = #"{"jsonrpc":"2.0","id":"smuggled","method":"ping"}"#
        let atLimit = String(repeating: "x", count: 16)
        let chunks = [
            atLimit + "\n", String(repeating: " ", count: 40), smuggled, "\n",
            String(repeating: "y", count: 17), "\n", "z", String(repeating: "z", count: 100_000) + smuggled + "\n" + "{\"ok\":1}\n",
            String(repeating: " ", count: 17) + smuggled,
        ]
        for chunk in chunks {
            _ = chunk.withCString { write(fds[1], $0, strlen($0)) }
        }
        close(fds[1])
        var lines: [String] = []
        for await line in channel.lines { lines.append(line) }
        #expect(lines == [atLimit, String(repeating: " ", count: 17), String(repeating: "y", count: 17), String(repeating: "z", count: 17), #"{"ok":1}"#, String(repeating: " ", count: 17)])
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
