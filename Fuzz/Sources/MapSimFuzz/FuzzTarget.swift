import Crypto
import Foundation
@testable import MapSim
import MapSimArchives
import MapSimCache
import MapSimContent
import MapSimJSON
@testable import MapSimHTTP
@testable import MapSimLive
@testable import MapSimServe
import MapSimStyle
import MapSimTrace
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOWebSocket
import Synchronization

/// The readers of outside bytes, one fuzz target each; `Fuzz/run` names them.
enum FuzzTarget: String, CaseIterable {
    case json, style, tilejson, vectorTile = "vector-tile", mlt, glyphs, sprite, png, geojson
    case mqtt, feedLine = "feed-line", webSocket = "websocket", liveUpdate = "live-update", topic
    case scenario, traceYAML = "trace-yaml", traceJSONLines = "trace-json-lines"
    case contentManifest = "content-manifest", contentPackage = "content-package"
    case offlineDatabase = "offline-database", regionDefinition = "region-definition", mbtiles, pmtiles
    case serveRequest = "serve-request", httpAnswer = "http-answer", gzip, measure

    /// The target `MAPSIM_FUZZ_TARGET` names.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["MAPSIM_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("MAPSIM_FUZZ_TARGET must be one of: \(allCases.map(\.rawValue).joined(separator: " "))\n".utf8))
            exit(64)
        }
        return target
    }()

    /// A scratch file for the readers of files, in memory where there is /dev/shm.
    private static let scratch: String = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return folder + "/mapsim-fuzz-\(getpid())"
    }()

    /// The templates a served style's requests are classified by.
    private static let servedTemplates = [URLTemplatePattern("glyphs/{fontstack}/{range}.pbf"), URLTemplatePattern("tiles/{z}/{x}/{y}{ratio}.pbf")]

    /// A request for bytes 16 to 47 of an archive, as a PMTiles read asks.
    private static let rangeRequest: Resource = {
        var resource = Resource(url: "http://127.0.0.1:38043/tiles/city.pmtiles", kind: .source)
        resource.dataRange = 16...47
        return resource
    }()

    private static let packageKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 7, count: 32)).publicKey

    /// Reads `bytes` as this target's format.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .json:
            if let value = try? JSONParser.parse(bytes) { _ = JSONWriter.string(value) }
        case .style:
            _ = try? Style.parse(bytes)
        case .tilejson:
            _ = try? TileJSON.parse(bytes)
        case .vectorTile:
            guard let tile = try? VectorTile.decode(bytes) else { return }
            for layer in tile.layers { for feature in layer.features { _ = feature.geometry(extent: 4096) } }
        case .mlt:
            guard let tile = try? MLTTile.decode(bytes) else { return }
            for layer in tile.layers { for feature in layer.features { _ = feature.geometry(extent: 512) } }
        case .glyphs:
            _ = try? GlyphSet.decode(bytes)
        case .sprite:
            _ = try? SpriteIndex.parse(bytes)
        case .png:
            _ = try? PNGHeader.read(bytes)
            _ = try? PNGImage.validate(bytes)
            // As a DEM tile of 3D terrain: its heights, and Mapbox GL JS's min/max quadtree of them.
            if let dem = try? DEMTile.decode(png: bytes, encoding: .mapbox) {
                _ = MapboxDEMTree(dem).range(levels: 4, x: 5, y: 9)
            }
        case .geojson:
            guard let document = try? JSONParser.parse(bytes) else { return }
            _ = try? GeoJSONGeometry(json: document)
            _ = GeoJSONTiler(document).features(in: CanonicalTileID(z: 0, x: 0, y: 0))
        case .mqtt:
            var decoder = MQTTPacketDecoder()
            decoder.append(bytes)
            while let packet = try? decoder.next() { _ = packet.encoded }
        case .feedLine:
            var parser = DynamicEntityLineParser(format: .init(trackIDField: "MMSI", timeField: "BaseDateTime"))
            for (number, line) in bytes.split(separator: 0x0A).enumerated() { _ = parser.parse(Array(line), number: number + 1) }
        case .webSocket:
            // What a server sends after its 101: NIOWebSocket's frame decoder and the feed's handler.
            let (_, continuation) = AsyncThrowingStream<WebSocketFeedClient.Event, any Error>.makeStream()
            let channel = EmbeddedChannel()
            let handlers: [any ChannelHandler] = [ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)),
                                                  WebSocketFeedHandler(report: WebSocketConnectionReport(events: continuation), maximumMessageSize: 1 << 20)]
            try? channel.pipeline.syncOperations.addHandlers(handlers)
            try? channel.writeInbound(ByteBuffer(bytes: bytes))
            _ = try? channel.finish(acceptAlreadyClosed: true)
        case .httpAnswer:
            Self.answerTwoRequests(with: bytes)
        case .gzip:
            // A zlib stream rewrapped as gzip (`region export`) must inflate to the stream's body.
            if let body = try? ZlibCodec.inflate(bytes, limit: 1 << 20), let member = ZlibCodec.gzip(rewrapping: bytes, of: body) {
                precondition((try? ZlibCodec.inflate(member)) == body, "the rewrapped member is not the body's")
            }
            // A body as a server sends it gzipped: what is kept as its zlib form must be that body's.
            guard let kept = try? ZlibCodec.inflateKeepingStream(bytes, limit: 1 << 20), let zlib = kept.zlib else { return }
            precondition(ZlibCodec.isStream(zlib, of: kept.body) && (try? ZlibCodec.inflate(zlib)) == kept.body, "the kept stream is not the body's")
        case .liveUpdate:
            _ = try? LiveUpdate(topic: LiveTopic(dataset: "d", venue: "v", building: "b", floor: "f", room: "r", location: "l", domainType: "t"), payload: bytes)
        case .topic:
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? LiveTopic(parsing: text)
            _ = try? TopicCriteria(parsing: text)
        case .scenario:
            _ = try? Scenario.parse(String(decoding: bytes, as: UTF8.self), name: "fuzz", folder: "/nonexistent")
        case .traceYAML:
            guard let trace = try? Trace.read(yaml: String(decoding: bytes, as: UTF8.self)) else { return }
            Self.drawReports(of: trace)
        case .traceJSONLines:
            Self.withScratchFile(bytes) { path in Self.readInBlocks(path) }
            guard let trace = try? Trace.read(jsonLines: bytes, allowTruncated: true) else { return }
            Self.drawReports(of: trace)
        case .contentManifest:
            _ = try? ContentManifest(json: bytes)
        case .contentPackage:
            if let key = Self.packageKey { _ = try? ContentPackage(bytes, key: key) }
        case .offlineDatabase:
            Self.withScratchFile(bytes) { path in
                guard let database = try? OfflineDatabase(path: path, options: .init(readOnly: true)) else { return }
                // Every region's verdict, as `region status` and `list` work it out.
                for region in (try? database.regions()) ?? [] {
                    _ = try? database.completeness(of: region)
                    // What `region export` reads: each template's tiles, then their data.
                    for template in ((try? database.regionTileTemplates(region.id)) ?? []).prefix(3) {
                        let tiles = (try? database.regionTiles(region.id, template: template)) ?? []
                        _ = try? database.tileData(rows: tiles.prefix(300).map(\.rowID))
                    }
                }
                _ = try? database.installedContentVersion(site: "city")
                _ = try? database.statistics()
                _ = Self.wait { await database.load(Resource(url: "http://127.0.0.1:38043/style.json", kind: .style)) }
            }
        case .measure:
            // What users write for limits and durations: `--budget NAME=LIMIT`, sizes, durations.
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? LoadBudget(parsing: text)
            _ = ByteCount.parse(text)
            _ = SimTime(parsing: text)
        case .regionDefinition:
            _ = try? OfflineRegionDefinition(decoding: String(decoding: bytes, as: UTF8.self))
        case .mbtiles:
            Self.withScratchFile(bytes) { path in
                guard let archive = try? MBTilesArchive(path: path) else { return }
                _ = try? archive.tileJSON(url: "mbtiles://" + path)
                for z in 0...2 { _ = try? archive.tile(z: z, x: 0, y: 0) }
            }
        case .pmtiles:
            guard let header = try? PMTilesHeader(bytes) else {
                _ = try? PMTilesDirectory(decoding: bytes)
                return
            }
            let (end, overflow) = header.rootDirectoryOffset.addingReportingOverflow(header.rootDirectoryLength)
            guard !overflow, end <= UInt64(bytes.count) else { return }
            _ = try? PMTilesDirectory(decoding: Array(bytes[Int(header.rootDirectoryOffset)..<Int(end)]))
        case .serveRequest:
            // A request as `mapsim serve` reads it: the path on the first line, headers after.
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let path = String(lines.first ?? "")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            _ = RemoteResources.originalURL(path)
            if let relative = ServedFolder.relativePath(path) {
                for template in Self.servedTemplates { _ = template.match(relative) }
                _ = ServedFolder.contentType(of: relative)
            }
            _ = FileAnswer.answer(method: "GET", requestHeaders: headers, content: Array(bytes.prefix(64)), contentType: "application/x-protobuf",
                                  etag: "\"e\"", modified: HTTPDate(secondsSince1970: 1_767_225_600), maxAge: 60)
        }
    }

    /// What a server sends to the plain HTTP client, through NIO's HTTP decoder and mapsim's
    /// connection handler: the bytes answer a request and, when the connection is free again, the
    /// next one; traps unless every request ended exactly once by the time the connection is
    /// closed — answered, or (the second, on a connection kept alive) handed back to be sent again
    /// when the connection closed before any of its answer came. Each answer is then read as the
    /// loader reads it (its status, `Cache-Control`, dates, `Retry-After`, `Content-Range` against a
    /// byte range asked, and where it redirects to).
    private static func answerTwoRequests(with bytes: [UInt8]) {
        let channel = EmbeddedChannel()
        try? channel.pipeline.syncOperations.addHTTPClientHandlers()
        try? channel.pipeline.syncOperations.addHandler(PlainHTTPConnection())
        _ = try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        let answers = Mutex((sent: 0, answered: 0))
        for path in ["/a", "/b"] {
            let exchange = PlainHTTPExchange(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: path), readTimeout: .seconds(30),
                                             maximumBodySize: 1 << 16) { result in
                answers.withLock { $0.answered += 1 }
                guard case .success(let answer) = result else { return }
                let headers = answer.headers.map { (name: $0.name, value: $0.value) }
                _ = HTTPResponseMapping.response(status: answer.status, headers: headers, body: answer.body, zlib: answer.zlib, for: Self.rangeRequest,
                                                 now: HTTPDate(secondsSince1970: 1_767_225_600))
                if let zlib = answer.zlib { precondition((try? ZlibCodec.inflate(zlib)) == answer.body, "the kept stream is not the body's") }
                if let location = answer.headers["location"].last { _ = URLResolver.resolve(location, against: Self.rangeRequest.url) }
            }
            let free = Mutex(false)
            let resend: (() -> Void)? = path == "/a" ? nil : { answers.withLock { $0.answered += 1 } }
            guard let context = try? channel.pipeline.syncOperations.context(handlerType: PlainHTTPConnection.self),
                  let connection = context.handler as? PlainHTTPConnection,
                  connection.run(exchange, in: context, released: { keptAlive in free.withLock { $0 = keptAlive } }, resend: resend) else { break }
            answers.withLock { $0.sent += 1 }
            try? channel.writeInbound(ByteBuffer(bytes: bytes))
            guard free.withLock({ $0 }) else { break }
        }
        _ = try? channel.finish(acceptAlreadyClosed: true)
        let (sent, answered) = answers.withLock { ($0.sent, $0.answered) }
        precondition(sent == answered, "\(sent) requests, \(answered) answers")
    }

    /// What is made of a trace read: its report page (rows, tiles, critical path) and its Perfetto export.
    /// Reads the trace at `path` in blocks of a few bytes, as `mapsim report` reads a long one in
    /// blocks of megabytes, and traps unless that is what reading it whole gives: the same header
    /// and events, or the same error.
    private static func readInBlocks(_ path: String) {
        func inBlocks() throws(TraceError) -> Trace {
            let reader = try TraceReader(file: path, allowTruncated: true, blockSize: 61)
            var events: [MapEvent] = []
            while let block = try reader.next() { events += block }
            return Trace(header: reader.header, events: events)
        }
        let whole = Result { () throws(TraceError) in try Trace.read(file: path, allowTruncated: true) }
        let blocks = Result { () throws(TraceError) in try inBlocks() }
        switch (whole, blocks) {
        case (.success(let whole), .success(let blocks)):
            precondition(whole.header == blocks.header && whole.events.map(\.jsonLine) == blocks.events.map(\.jsonLine), "read in blocks, the trace differs")
        case (.failure(let whole), .failure(let blocks)):
            precondition(whole.description == blocks.description, "read in blocks, the error differs: \(whole) / \(blocks)")
        default:
            preconditionFailure("read in blocks, the trace is read where it is not, or not where it is")
        }
    }

    private static func drawReports(of trace: Trace) {
        _ = ReportPage.html([TraceReport(name: "fuzz", trace: trace)])
        _ = PerfettoExporter.export(trace)
    }

    private static func withScratchFile(_ bytes: [UInt8], _ body: (String) -> Void) {
        guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes)) else { return }
        body(scratch)
        for suffix in ["", "-wal", "-shm", "-journal", ".corrupt"] { unlink(scratch + suffix) }
    }

    /// Waits for async `work` from the fuzzer's thread, which is not one of the concurrency pool's.
    private static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
