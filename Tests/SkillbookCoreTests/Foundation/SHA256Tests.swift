import SkillbookCore
import Testing

/// FIPS 180-4's examples and the NIST long-message vector, and lengths around the padding's edges.
@Suite struct SHA256Tests {
    @Test func knownDigests() {
        #expect(SHA256.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(of: String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// 55 bytes pad into one block, 56 and 64 into two: each digest differs and is 64 hex digits.
    @Test func lengthsAtThePaddingsEdges() {
        let digests = [55, 56, 63, 64, 65].map { SHA256.hex(of: String(repeating: "x", count: $0)) }
        #expect(Set(digests).count == 5)
        #expect(digests.allSatisfy { $0.utf8.count == 64 && $0.allSatisfy(\.isHexDigit) })
    }
}
