import Testing
@testable import MapSimJSON

/// `JSONValue.isIdentical(to:)` and `hashIdentity(into:)`: the same JSON text but for spacing, told
/// apart as the text would be, without writing it out.
@Suite("JSONValue.identity")
struct JSONValueIdentityTests {
    private func hash(_ value: JSONValue) -> Int {
        var hasher = Hasher()
        value.hashIdentity(into: &hasher)
        return hasher.finalize()
    }

    @Test func theSameTextButForSpacingIsIdenticalAndHashesAlike() throws {
        let a = try JSONParser.parse(#"["match", ["get", "class"], ["a", "b"], {"k": [1, 2.5, null, true]}, "x"]"#)
        let b = try JSONParser.parse("[\"match\",[\"get\",\"class\"],\n[\"a\",\"b\"],{\"k\":[1,2.5,null,true]},\"x\"]")
        #expect(a.isIdentical(to: b) && hash(a) == hash(b))
    }

    @Test(arguments: [
        (#""é""#, "\"e\u{301}\""),          // canonically equivalent, different code units
        ("0", "-0"),                         // equal numbers, different bits
        (#"{"a": 1, "b": 2}"#, #"{"b": 2, "a": 1}"#),  // members in another order
        (#"["ab", "c"]"#, #"["a", "bc"]"#),  // the same bytes cut elsewhere
        (#"[[1], 2]"#, #"[1, [2]]"#),
        ("null", "false"),
        (#"{"a": []}"#, #"{"a": {}}"#),
    ])
    func differentTextIsNotIdentical(left: String, right: String) throws {
        let a = try JSONParser.parse(left)
        let b = try JSONParser.parse(right)
        #expect(!a.isIdentical(to: b) && !b.isIdentical(to: a))
        let again = try JSONParser.parse(left)
        #expect(a.isIdentical(to: again) && hash(a) == hash(again))
    }

    @Test func differentTextHashesApart() throws {
        let values = try [#"["ab", "c"]"#, #"["a", "bc"]"#, #"[[1], 2]"#, #"[1, [2]]"#, "0", "-0", #""é""#, "\"e\u{301}\""].map { try JSONParser.parse($0) }
        #expect(Set(values.map(hash)).count == values.count)
    }
}
