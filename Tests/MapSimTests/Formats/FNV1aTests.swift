import Testing
@testable import MapSim

/// The FNV-1a fingerprint, the same whether bytes come from storage or one at a time.
@Suite("FNV-1a fingerprints")
struct FNV1aTests {
    private static func fingerprint(_ pieces: [some Sequence<UInt8>]) -> UInt64 {
        var fingerprint = FNV1a()
        for piece in pieces { fingerprint.add(piece) }
        return fingerprint.value
    }

    /// The published 64-bit test vectors, fed as an array, a slice, a string's UTF-8 and a lazy sequence.
    @Test func theTestVectorsHoldForEveryKindOfSequence() {
        for (text, expected): (String, UInt64) in [("", 0xCBF2_9CE4_8422_2325), ("a", 0xAF63_DC4C_8601_EC8C), ("foobar", 0x8594_4171_F739_67E8)] {
            let bytes = Array(text.utf8)
            #expect(Self.fingerprint([bytes]) == expected, "\(text)")
            #expect(Self.fingerprint([bytes[...]]) == expected, "\(text)")
            #expect(Self.fingerprint([text.utf8]) == expected, "\(text)")
            #expect(Self.fingerprint([bytes.lazy.map { $0 }]) == expected, "\(text)")
        }
    }

    /// Bytes fed in pieces fingerprint as the whole does.
    @Test func piecesAddUpToTheWhole() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(Self.fingerprint([bytes[..<300], bytes[300..<301], bytes[301...]]) == Self.fingerprint([bytes]))
    }
}
