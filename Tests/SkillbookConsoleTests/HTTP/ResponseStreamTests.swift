import Foundation
import Testing

@testable import SkillbookConsole

/// The buffer of a streamed response: bounded for a client that stops reading.
@Suite struct ResponseStreamTests {
    @Test func aClientThatStopsReadingEndsTheStreamPastTheLimit() {
        let stream = ResponseStream(keepAlive: 15, maxPending: 10)
        stream.write("data: 12345\n")
        #expect(stream.isClosed, "12 bytes pending is past the limit of 10: the stream ends after them")
        stream.write("data: more\n")
        var sent: [UInt8] = []
        while let chunk = stream.read(max: 4) { sent += chunk }
        #expect(String(decoding: sent, as: UTF8.self) == "data: 12345\n", "what was pending is sent, nothing written after")
    }

    @Test func underTheLimitEverythingIsSentInOrder() {
        let stream = ResponseStream(keepAlive: 15, maxPending: 1 << 20)
        stream.write("a\n")
        stream.write("b\n")
        #expect(!stream.isClosed)
        stream.finish()
        var sent: [UInt8] = []
        while let chunk = stream.read(max: 3) { sent += chunk }
        #expect(String(decoding: sent, as: UTF8.self) == "a\nb\n")
    }
}
