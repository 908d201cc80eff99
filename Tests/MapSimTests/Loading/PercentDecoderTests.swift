import Foundation
import Testing
import MapSim

@Suite("Percent decoding")
struct PercentDecoderTests {
    @Test func decodesAsFoundationDoes() {
        let cases = ["", "plain/path.pbf", "glyphs/Mapsim%20Sans%20Regular/0-255.pbf", "%41%62%2f", "caf%C3%A9", "%E4%B8%AD%E6%96%87",
                     "100%", "%4", "%zz", "%%41", "%C3", "%FF", "%00", "a+b", "ünï/cødé", "%e2%82%ac"]
        for text in cases { #expect(PercentDecoder.decode(text) == text.removingPercentEncoding, "\(text)") }
        #expect(PercentDecoder.decode("glyphs/Mapsim%20Sans%20Regular/0-255.pbf") == "glyphs/Mapsim Sans Regular/0-255.pbf")
        #expect(PercentDecoder.decode("%zz") == nil && PercentDecoder.decode("%C3") == nil)
    }

    /// Foundation on Linux answers bytes that are not UTF-8 with nil for most (`%80`, `%C3`) and
    /// with U+FFFD for some (`%A9`); the decoder answers nil for all of them.
    @Test func decodesSeededRandomTextAsFoundationDoesSaveThatBytesThatAreNotUTF8AreAlwaysNil() {
        var generator = SplitMix64(seed: 5)
        let pieces = ["%", "2", "0", "C3", "A9", "f", "G", "/", "a", "é", "%2", "%E2%82", "%AC", "%80", " ", "+"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let foundation = text.removingPercentEncoding
            let expected = foundation?.unicodeScalars.contains("\u{FFFD}") == true && !text.contains("\u{FFFD}") ? nil : foundation
            #expect(PercentDecoder.decode(text) == expected, "\(text)")
        }
        #expect(PercentDecoder.decode("%A9") == nil)
    }
}
