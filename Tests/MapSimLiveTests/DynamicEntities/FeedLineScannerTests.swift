import Testing
import MapSim
import MapSimJSON
@testable import MapSimLive

/// The feed's line scanner: what it reads, and what it refuses.
@Suite("FeedLineScanner")
struct FeedLineScannerTests {
    private func scan(_ text: String, time: String? = "t") throws(FeedError) -> FeedLineScanner.Found {
        var scanner = FeedLineScanner(Array(text.utf8), trackIDField: "id", timeField: time)
        return try scanner.scan()
    }

    @Test func readsThePointTheTrackIDAndTheTime() throws {
        let found = try scan(#" {"attributes": {"skip": [1, {"a": null}, true, false, -0.5e-3], "id": "v\"1", "t": 1700000000000}, "geometry": {"x": -12.5, "y": 55.25}} "#)
        #expect(found.x == -12.5 && found.y == 55.25)
        #expect(found.trackID == .string("v\"1") && found.time == .number(1_700_000_000_000))
        let geoJSON = try scan(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1e1, 2.5E-1]}, "properties": {"id": 7}}"#)
        #expect(geoJSON.isPoint && geoJSON.coordinates == [10, 0.25] && geoJSON.trackID == .string("7"))
    }

    @Test(arguments: [
        #"{"geometry": {"x": 1, "y": 2}"#, #"{"geometry": {"x": 1, "y": 2}} x"#, #"{"a": tru}"#, #"{"a": 01}"#, #"{"a": 1.}"#,
        #"{"a": "x}"#, "{\"a\": \"\u{1}\"}", #"{"a" 1}"#, #"{"a": [1 2]}"#, "", #"{"a": -}"#, #"{"a": 1e}"#,
    ])
    func refusesWhatIsNotJSON(line: String) {
        #expect(throws: FeedError.self) { try scan(line) }
        #expect(throws: (any Error).self) { try JSONParser.parse(Array(line.utf8)) }
    }

    @Test func anObservationIsAnObject() {
        #expect(throws: FeedError.self) { try scan("[1]") }
    }

    @Test func readsNumbersExactlyAsTheJSONReaderDoes() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let digits = String(random.next() % 10_000_000_000_000)
            let point = Int(random.next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + (point < digits.count ? "." + digits.dropFirst(point) : "")
            if text.hasPrefix(".") || text.isEmpty { text = "0" + text }
            while text.count > 1 && text.hasPrefix("0") && !text.hasPrefix("0.") { text.removeFirst() }
            if random.next() % 3 == 0 { text += "e\(Int(random.next() % 40) - 20)" }
            if random.next() % 2 == 0 { text = "-" + text }
            let found = try scan(#"{"geometry": {"x": \#(text), "y": 0}}"#)
            #expect(found.x == (try JSONParser.parse(Array(text.utf8))).numberValue, "\(text)")
        }
    }

    @Test func largeNumericTrackIDsStayDistinctAndAreTheirText() throws {
        var parser = DynamicEntityLineParser(format: .init(trackIDField: "id"))
        func trackID(_ id: String) -> String? {
            guard case .observation(let line) = parser.parse(Array(#"{"geometry": {"x": 1, "y": 2}, "attributes": {"id": \#(id)}}"#.utf8), number: 1) else { return nil }
            return line.observation.trackID
        }
        #expect(trackID("9999999999999999") == "9999999999999999" && trackID("10000000000000000") == "10000000000000000")
        #expect(trackID("123456789012345678901234567890") == "123456789012345678901234567890")
        #expect(trackID("1.0") == "1" && trackID("1e3") == "1000" && trackID("2.5") == "2.5" && trackID("1e300") == "1e300")
        #expect(trackID(#""MMSI-7""#) == "MMSI-7")
    }
}
