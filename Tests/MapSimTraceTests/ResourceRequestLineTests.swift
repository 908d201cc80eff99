import Testing
@testable import MapSim
import MapSimStyle
@testable import MapSimJSON
@testable import MapSimTrace

@Suite("Resource-request lines read from their bytes")
struct ResourceRequestLineTests {
    /// What `MapEvent(json:)` makes of a line, or nil when it refuses it.
    private func general(_ line: String) -> MapEvent? {
        guard case .object(let object)? = try? JSONParser.parse(line) else { return nil }
        return try? MapEvent(json: object)
    }

    private func fast(_ line: String) -> MapEvent? {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { ResourceRequestLine.event($0, range: 0..<bytes.count) }
    }

    /// Resource requests of every shape a trace holds: each answer, a range, an import, escapes.
    static let requests: [MapEvent] = {
        var ok = Response.success([1, 2, 3], source: .network)
        ok.etag = "\"e: 1\""
        ok.expires = HTTPDate(secondsSince1970: 1_767_225_900)
        ok.modified = HTTPDate(secondsSince1970: 1_767_225_000)
        ok.mustRevalidate = true
        var notModified = Response(source: .cache)
        notModified.notModified = true
        var empty = Response(source: .localFile)
        empty.noContent = true
        var ranged = Resource(url: "pmtiles://h/a.pmtiles", kind: .source)
        ranged.dataRange = 127...16_511
        var open = Resource(url: "https://h/v.mp4", kind: .unknown)
        open.dataRange = 0...UInt64.max
        open.loadingMethod = [.network]
        var scoped = Resource(url: "https://h/é/t\\1\t.pbf", kind: .tile, priority: .low)
        scoped.scope = StyleScope(parsing: "basemap/streets")
        let requests: [(DataSource, Resource, Response?, Bool)] = [
            (.network, Resource(url: "https://h/s.json?v=1", kind: .style), ok, false),
            (.resourceLoader, Resource(url: "https://h/t.pbf", kind: .tile), nil, true),
            (.database, Resource(url: "https://h/g.pbf", kind: .glyphs), .failure(.inOfflineMode, "offline: \"quoted\"\n", source: .cache), false),
            (.network, Resource(url: "https://h/10/1/2.pbf", kind: .tile), .failure(.server, "HTTP 503 server error", source: .network), false),
            (.database, Resource(url: "https://h/1.pbf", kind: .tile), notModified, false),
            (.fileSystem, Resource(url: "file:///t/0/0/0.pbf", kind: .tile), empty, false),
            (.network, ranged, .success([0, 1], source: .network), false),
            (.network, open, nil, false),
            (.network, scoped, .success([9], source: .network), false),
        ]
        return requests.enumerated().map { index, request in
            MapEvent(begin: SimTime(microseconds: Int64(index) * 1_000), end: SimTime(microseconds: Int64(index) * 1_000 + 250),
                     payload: .resourceRequest(ResourceRequest(dataSource: request.0, request: request.1, response: request.2, cancelled: request.3)))
        }
    }()

    @Test("every line mapsim writes is read as the general reader reads it")
    func readsWhatMapsimWrites() {
        for event in Self.requests {
            let line = event.jsonLine
            #expect(fast(line) != nil, "left to the general reader: \(line)")
            #expect(fast(line) == general(line), "\(line)")
            #expect(fast(line)?.jsonLine == line)
        }
    }

    @Test("other tools' spacing and member order read the same; what it is unsure of is left to the general reader")
    func spacingOrderAndRefusals() {
        let spaced = #" { "data" : { "cancelled" : false , "request" : { "kind" : "tile" , "url" : "https://h/1/0/0.pbf" } , "data-source" : "network" } , "end" : 5 , "begin" : -0 , "type" : "resource-request" } "#
        #expect(fast(spaced) != nil)
        #expect(fast(spaced) == general(spaced))
        let base = Self.requests[0].jsonLine
        // Each is read by the general reader, or refused by it; never by this one.
        let unsure = [
            base.replacingOccurrences(of: #""begin":0"#, with: #""begin":0.0"#),
            base.replacingOccurrences(of: #""begin":0"#, with: #""begin":1e3"#),
            base.replacingOccurrences(of: #""url":"#, with: #""extra":1,"url":"#),
            base.replacingOccurrences(of: #""kind":"style""#, with: #""kind":"style","kind":"tile""#),
            base.replacingOccurrences(of: "s.json", with: #"s\u002ejson"#),
            base.replacingOccurrences(of: #""begin":0"#, with: #""begin":1234567890123456"#),
            base.replacingOccurrences(of: "resource-request", with: "map-idle"),
        ]
        for line in unsure { #expect(fast(line) == nil, "\(line)") }
        // Refused by both: a wrong kind, a negative size, a range backwards, a cut line.
        let wrong = [
            base.replacingOccurrences(of: #""kind":"style""#, with: #""kind":"styles""#),
            base.replacingOccurrences(of: #""size":3"#, with: #""size":-3"#),
            Self.requests[6].jsonLine.replacingOccurrences(of: #""from":127"#, with: #""from":20000"#),
            String(base.dropLast(3)),
        ]
        for line in wrong {
            #expect(fast(line) == nil, "\(line)")
            #expect(general(line) == nil, "\(line)")
        }
    }

    @Test("a line cut or changed at any byte is read as the general reader reads it, or left to it")
    func everyCutAndChange() {
        for event in Self.requests {
            let bytes = Array(event.jsonLine.utf8)
            for index in bytes.indices {
                var changed = bytes
                changed[index] = index % 3 == 0 ? UInt8(ascii: " ") : index % 3 == 1 ? UInt8(ascii: "1") : UInt8(ascii: "\"")
                for line in [String(decoding: bytes[..<index], as: UTF8.self), String(decoding: changed, as: UTF8.self)] {
                    guard let read = fast(line) else { continue }
                    #expect(read == general(line), "\(line)")
                }
            }
        }
    }
}
