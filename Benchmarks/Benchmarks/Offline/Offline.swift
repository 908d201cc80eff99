import Benchmark
import Foundation
import MapSim
import MapSimCache
import MapSimHTTP
import MapSimStyle
import MapSimTesting

/// Offline regions: the sample style's region of about 20,000 tiles (zooms 0–14) downloaded from a
/// real HTTP server on loopback into a real offline database, at the SDKs' 20 requests in flight —
/// and of about 5,000 tiles, to show that memory does not grow with the region — then `region
/// check` of the 20,000 tiles, each laid out. Every tile is a real vector tile of the sample.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(60), maxIterations: 5)

    /// A square of `side` × `side` tiles at zoom 14 near (0°, 0°), and every zoom below it.
    func region(side: Int, styleURL: String) throws -> OfflineRegionDefinition {
        let width = 360.0 / 16_384 * Double(side)
        return try OfflineRegionDefinition(styleURL: styleURL, area: .bounds(LngLatBounds(west: 0.001, south: 0.001, east: 0.001 + width, north: 0.001 + width)),
                                           minZoom: 0, maxZoom: 14)
    }

    /// A server for the sample style whose TileJSON reaches zoom 14 and answers every tile with a
    /// real tile of the sample.
    func startServer() async throws -> (FixtureServer, FixtureDirectory) {
        let folder = try FixtureDirectory()
        try folder.copy(folder: SampleStyle.folder, to: "sample")
        let server = try await FixtureServer.start(serving: folder.path + "/sample", recordingRequests: false)
        try folder.write("sample/tiles.json", #"{"tilejson": "2.2.0", "tiles": ["\#(server.baseURL)/tiles/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 14}"#)
        let tile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))
        server.reply(prefix: "/tiles/", with: .status(200, headers: [("Content-Type", "application/x-protobuf")], body: tile))
        return (server, folder)
    }

    func download(side: Int, _ benchmark: Benchmark) async throws {
        let (server, served) = try await startServer()
        let folder = try FixtureDirectory()
        let database = try OfflineDatabase(path: folder.path + "/app.db")
        let network = HTTPResourceLoader()
        let definition = try region(side: side, styleURL: server.baseURL + "/style.json")
        let created = try database.createRegion(definition, metadata: nil)
        let downloader = RegionDownloader(database: database, backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network),
                                          timing: ImmediateDelivery(), loading: .init(wallClock: .today()))
        benchmark.startMeasurement()
        let result = try await downloader.download(created)
        benchmark.stopMeasurement()
        precondition(result.status.isComplete && result.failures.isEmpty, "the download failed: \(result)")
        blackHole(result.status.completedTileCount)
        try await network.shutdown()
        await server.stop()
        withExtendedLifetime(served) {}
    }

    Benchmark("Region download, ~20k tiles, loopback HTTP") { benchmark in
        try await download(side: 122, benchmark)
    }

    Benchmark("Region download, ~5k tiles, loopback HTTP") { benchmark in
        try await download(side: 61, benchmark)
    }

    Benchmark("Region check, ~20k tiles, each laid out") { benchmark in
        let (server, served) = try await startServer()
        let folder = try FixtureDirectory()
        let database = try OfflineDatabase(path: folder.path + "/app.db")
        let network = HTTPResourceLoader()
        let definition = try region(side: 122, styleURL: server.baseURL + "/style.json")
        let created = try database.createRegion(definition, metadata: nil)
        _ = try await RegionDownloader(database: database, backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network),
                                       timing: ImmediateDelivery(), loading: .init(wallClock: .today())).download(created)
        try await network.shutdown()
        await server.stop()
        withExtendedLifetime(served) {}
        benchmark.startMeasurement()
        let report = try RegionCheck(database: database, definition: definition, now: WallClock.today().start).run()
        benchmark.stopMeasurement()
        precondition(report.isComplete, "the region is not complete: \(report.missing.prefix(3))")
        blackHole(report.checked)
    }
}
