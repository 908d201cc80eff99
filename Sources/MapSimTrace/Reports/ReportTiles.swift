import MapSim
import MapSimJSON

/// The tiles of a trace as a report's tile grids draw them, per source: each tile with how it was
/// answered (`loaded`, `cache`, `empty`, `failed`, `cancelled`), when it first arrived, how many
/// copies of it the view showed at once (world copies), and whether it is a parent of another tile
/// of its source (a lower zoom shown while the view's own tiles load, or prefetched).
///
/// Events name tiles in `source-data-loaded` and tile errors; requests name only URLs, so a tile
/// request is matched to its source by the `z/x/y` in its URL and the source's loads that followed.
public struct ReportTiles: Sendable {
    /// A tile's place, without the checks of `CanonicalTileID` (URLs may name anything).
    struct Key: Hashable, Comparable {
        var z: Int
        var x: Int
        var y: Int

        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.z, lhs.y, lhs.x) < (rhs.z, rhs.y, rhs.x) }

        /// The tile a URL names: its last three whole-number path segments, `z/x/y` (a file
        /// extension, `@2x` and a query after them allowed); nil when there are none or they are no
        /// tile.
        init?(url: String) {
            // ASCII (nearly every URL): read as bytes. Otherwise as characters, where a digit may be
            // one of another script.
            guard url.utf8.allSatisfy({ $0 < 0x80 }) else {
                self.init(characters: url)
                return
            }
            guard let key = url.utf8.withContiguousStorageIfAvailable(Self.parse) ?? Array(url.utf8).withUnsafeBufferPointer(Self.parse) else { return nil }
            self = key
        }

        /// The tile the ASCII URL `bytes` names, as `init(url:)` reads it.
        private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
            let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            // The last three non-empty segments, from the end: y, x, z.
            var cursor = end
            func previousSegment() -> Range<Int>? {
                while cursor > 0, bytes[cursor - 1] == UInt8(ascii: "/") { cursor -= 1 }
                guard cursor > 0 else { return nil }
                var start = cursor
                while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
                defer { cursor = start }
                return start..<cursor
            }
            guard let ySegment = previousSegment(), let xSegment = previousSegment(), let zSegment = previousSegment() else { return nil }
            func number(_ range: Range<Int>, prefixOnly: Bool) -> Int? {
                var value = 0
                var digits = 0
                for index in range {
                    let byte = bytes[index]
                    guard byte >= 0x30, byte <= 0x39 else {
                        if prefixOnly { break }
                        return nil
                    }
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (sum, carry) = times.addingReportingOverflow(Int(byte - 0x30))
                    guard !overflow, !carry else { return nil }
                    value = sum
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            guard let z = number(zSegment, prefixOnly: false), let x = number(xSegment, prefixOnly: false),
                  let y = number(ySegment, prefixOnly: true) else { return nil }
            guard (0...30).contains(z), x < 1 << z, y < 1 << z else { return nil }
            return Key(z: z, x: x, y: y)
        }

        /// `init(url:)` character by character.
        private init?(characters url: String) {
            let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            let segments = path.split(separator: "/").suffix(3)
            guard segments.count == 3 else { return nil }
            var numbers: [Int] = []
            for (offset, segment) in segments.enumerated() {
                let digits = offset == 2 ? segment.prefix { $0.isNumber } : segment[...]
                guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let number = Int(digits) else { return nil }
                numbers.append(number)
            }
            guard (0...30).contains(numbers[0]), numbers[1] < 1 << numbers[0], numbers[2] < 1 << numbers[0] else { return nil }
            self.init(z: numbers[0], x: numbers[1], y: numbers[2])
        }

        init(z: Int, x: Int, y: Int) {
            self.z = z
            self.x = x
            self.y = y
        }

        init(_ id: CanonicalTileID) {
            self.init(z: id.z, x: id.x, y: id.y)
        }
    }

    /// One tile of a source.
    struct Tile {
        var state: String
        var time: SimTime
        var copies: Int
    }

    /// A tile request: what the tiles need of it, in 24 bytes (a trace may hold 100,000).
    private struct Request {
        var x: UInt32
        var y: UInt32
        /// Its URL with the `z/x/y` cut out (`template(of:)`), by its place in `templates`.
        var template: UInt32
        var z: UInt8
        var outcome: ResourceRequest.Outcome
        var cancelled: Bool
        var fromCache: Bool
        var end: SimTime

        /// Its tile.
        var key: Key { Key(z: Int(z), x: Int(x), y: Int(y)) }
    }

    /// The tile requests seen, in order.
    private var requests: [Request] = []
    /// The URL templates of the tile requests, each once, and each one's place.
    private var templates: [String] = []
    private var templateIndex: [String: Int] = [:]
    /// The tiles of sources loaded, in order.
    private var loads: [(source: String, key: Key, time: SimTime)] = []
    /// The tiles of sources that failed, in order.
    private var failures: [(source: String, key: Key, time: SimTime)] = []

    /// No tiles yet: `add(_:)` adds the events of a trace one by one, as a long trace is read.
    public init() {}

    /// The tiles of `events`.
    public init(_ events: [MapEvent]) {
        for event in events { add(event) }
    }

    /// Adds the next event of the trace. A tile request keeps only what the grids need (its
    /// tile, its URL's template), so a trace of 100,000 tile requests is read in little memory.
    /// Whether `add(_:)` takes anything of `event`: a tile's request, load or failure.
    public static func reads(_ event: MapEvent) -> Bool {
        switch event.payload {
        case .resourceRequest(let request): request.request.kind == .tile
        case .sourceDataLoaded(let loaded): loaded.type == .tile
        case .mapLoadingError(let error): error.type == .tile
        default: false
        }
    }

    public mutating func add(_ event: MapEvent) {
        switch event.payload {
        case .resourceRequest(let request) where request.request.kind == .tile:
            let id = request.request.tileData.map { Key($0.id) } ?? Key(url: request.request.url)
            guard let id else { return }
            let template = Self.template(of: request.request.url)
            let index = templateIndex[template] ?? {
                templates.append(template)
                templateIndex[template] = templates.count - 1
                return templates.count - 1
            }()
            // A key's zoom is at most 30: its x and y fit in 32 bits.
            requests.append(Request(x: UInt32(id.x), y: UInt32(id.y), template: UInt32(index), z: UInt8(id.z), outcome: request.outcome,
                                    cancelled: request.cancelled, fromCache: request.answeredBy == "cache", end: event.end))
        case .sourceDataLoaded(let loaded) where loaded.type == .tile:
            if let tile = loaded.tileID { loads.append((loaded.id, Key(tile), event.end)) }
        case .mapLoadingError(let error) where error.type == .tile:
            if let source = error.sourceID, let tile = error.tileID { failures.append((source, Key(tile), event.end)) }
        default:
            return
        }
    }

    /// The sources, in the order first seen, each with its tiles.
    var sources: [(source: String, tiles: [Key: Tile])] {
        // No tile loaded or failed: no source to draw (and no template to learn).
        guard !loads.isEmpty || !failures.isEmpty else { return [] }
        // Which URL template serves which source: learnt from the loads a request's answer led to.
        var sourceOfTemplate: [UInt32: String] = [:]
        var requestsByKey: [Key: [Int]] = [:]
        for (index, request) in requests.enumerated() { requestsByKey[request.key, default: []].append(index) }
        func answering(_ key: Key, by time: SimTime) -> Request? {
            (requestsByKey[key] ?? []).map { requests[$0] }.last { $0.end <= time && !$0.cancelled }
        }
        for load in loads + failures {
            if let request = answering(load.key, by: load.time), sourceOfTemplate[request.template] == nil {
                sourceOfTemplate[request.template] = load.source
            }
        }
        var sources: [(source: String, tiles: [Key: Tile])] = []
        func update(_ source: String, _ key: Key, _ change: (inout Tile?) -> Void) {
            let index = sources.firstIndex { $0.source == source } ?? {
                sources.append((source, [:]))
                return sources.count - 1
            }()
            change(&sources[index].tiles[key])
        }
        var loadCounts: [String: [Key: (time: SimTime, count: Int)]] = [:]
        for load in loads {
            let seen = loadCounts[load.source]?[load.key]
            if seen == nil { loadCounts[load.source, default: [:]][load.key] = (load.time, 1) } else if seen?.time == load.time {
                loadCounts[load.source]?[load.key]?.count += 1
            }
        }
        for load in loads {
            update(load.source, load.key) { tile in
                guard tile == nil else { return }
                let request = answering(load.key, by: load.time)
                let state = request.map { $0.outcome == .noContent ? "empty" : $0.fromCache ? "cache" : "loaded" } ?? "loaded"
                tile = Tile(state: state, time: load.time, copies: loadCounts[load.source]?[load.key]?.count ?? 1)
            }
        }
        // A tile that failed and loaded later (retried) is loaded; one that never loaded failed.
        for failure in failures {
            update(failure.source, failure.key) { tile in
                if tile == nil { tile = Tile(state: "failed", time: failure.time, copies: 1) }
            }
        }
        // Requests no load followed: cancelled, or failed without a tile error (a map retries).
        for request in sourceOfTemplate.isEmpty ? [] : requests {
            guard let source = sourceOfTemplate[request.template] else { continue }
            update(source, request.key) { tile in
                guard tile == nil else { return }
                let state = request.outcome == .cancelled ? "cancelled" : request.outcome == .error ? "failed" : "empty"
                tile = Tile(state: state, time: request.end, copies: 1)
            }
        }
        return sources
    }

    /// The tiles as a page draws them: `[{"source": ID, "tiles": [[z, x, y, state, µs, copies, parent (0 or 1)]]}]`.
    public var json: JSONValue {
        .array(sources.map { source in
            let keys = source.tiles.keys.sorted()
            let parents = Self.parents(of: Set(keys))
            let tiles: [JSONValue] = keys.map { key in
                let tile = source.tiles[key]!
                return .array([.number(Double(key.z)), .number(Double(key.x)), .number(Double(key.y)), .string(tile.state),
                               .number(Double(tile.time.microseconds)), .number(Double(tile.copies)), .number(parents.contains(key) ? 1 : 0)])
            }
            return .object(JSONObject([("source", .string(source.source)), ("tiles", .array(tiles))]))
        })
    }

    /// The tiles of `keys` that cover another tile of `keys` at a higher zoom.
    private static func parents(of keys: Set<Key>) -> Set<Key> {
        var parents: Set<Key> = []
        for key in keys {
            var ancestor = key
            while ancestor.z > 0 {
                ancestor = Key(z: ancestor.z - 1, x: ancestor.x / 2, y: ancestor.y / 2)
                if keys.contains(ancestor) { parents.insert(ancestor) }
            }
        }
        return parents
    }

    /// A tile URL with its `z/x/y` cut out: what the requests of one source's tiles share.
    static func template(of url: String) -> String {
        // ASCII (nearly every URL): cut as bytes; otherwise as characters.
        guard url.utf8.allSatisfy({ $0 < 0x80 }) else { return template(ofCharacters: url) }
        let bytes = Array(url.utf8)
        let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let slashes = bytes[..<end].indices.filter { bytes[$0] == UInt8(ascii: "/") }.suffix(3)
        guard slashes.count >= 2 else { return url }
        let last = slashes[slashes.endIndex - 1]
        let kept = slashes.count == 3 ? slashes[slashes.startIndex] : 0
        var suffixStart = last + 1
        while suffixStart < end, bytes[suffixStart] >= 0x30, bytes[suffixStart] <= 0x39 { suffixStart += 1 }
        return String(decoding: bytes[..<kept], as: UTF8.self) + "/{z}/{x}/{y}" + String(decoding: bytes[suffixStart...], as: UTF8.self)
    }

    /// `template(of:)` character by character.
    private static func template(ofCharacters url: String) -> String {
        let cut = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var segments = cut[0].split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 3 else { return url }
        let last = segments[segments.count - 1]
        segments.removeLast(3)
        let suffix = last.drop { $0.isNumber }
        return segments.joined(separator: "/") + "/{z}/{x}/{y}" + suffix + (cut.count > 1 ? "?" + cut[1] : "")
    }
}
