import Foundation
import MapSim
import MapSimArchives
import MapSimStyle
import MapSimJSON
import MapSimTesting
import Synchronization
import Testing

/// `pmtiles://` sources on a map: range reads through the pipeline, directories kept, damage named.
@Suite struct PMTilesSourceTests {
    /// The tiles the sample style loads from its folder: what an archive of the same tiles must give.
    static func folderTiles() async -> Set<String> {
        let (_, recorder, _) = await loadArchiveStyle(SampleStyle.url)
        return recorder.loadedTiles
    }

    @Test func localArchiveLoadsToMapIdleWithEachRangeARequest() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(recorder.loadingErrors.isEmpty)
        #expect(recorder.loadedTiles == (await Self.folderTiles()))
        let reads = recorder.requests.filter { $0.request.url == "file://\(path)" }
        #expect(reads.allSatisfy { $0.request.dataRange != nil })
        // A tile's bytes are a tile; the header and directories are the source's.
        let header = try PMTilesHeader(try InputFile.read(path, range: 0...126, limit: 127))
        #expect(reads.allSatisfy { ($0.request.dataRange!.lowerBound >= header.tileDataOffset) == ($0.request.kind == .tile) })
        #expect(reads.count { $0.request.kind == .tile } == recorder.loadedTiles.count)
        #expect(reads.first?.request.dataRange == 0...126)
        let root = header.rootDirectoryOffset...(header.rootDirectoryOffset + header.rootDirectoryLength - 1)
        #expect(reads.filter { $0.request.dataRange == root }.count == 1, "the root directory is read once for every tile")
        #expect(reads.filter { $0.request.dataRange == 0...126 }.count == 1, "the header is read once")
        // The event says the range.
        let line = recorder.events.first { MapEvents.resourceRequest.payload(in: $0.payload)?.request.dataRange == 0...126 }?.jsonLine ?? ""
        #expect(line.contains(#""range":{"from":0,"to":126}"#))
    }

    @Test func directoriesAreKeptAcrossCameraMoves() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        let (map, recorder, _) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"))
        await map.setCamera(CameraOptions(center: LngLat(longitude: -122.45, latitude: 37.75), zoom: 11))
        _ = await map.run(until: .mapIdle, timeout: .seconds(30))
        let header = try PMTilesHeader(try InputFile.read(path, range: 0...126, limit: 127))
        let rootStart = header.rootDirectoryOffset
        #expect(recorder.requests.filter { $0.request.dataRange?.lowerBound == rootStart }.count == 1)
        #expect(recorder.loadingErrors.isEmpty)
    }

    @Test func archiveWithLeafDirectoriesReadsEachLeafOnce() async throws {
        // Some 30,000 distinct tiles of varied sizes, scattered at zoom 14 around the view: too many
        // entries for the root directory.
        var tiles: [(z: Int, x: Int, y: Int, bytes: [UInt8])] = []
        var random = SplitMix64(seed: 14)
        for x in 2520..<2770 {
            for y in 6200..<6450 where random.next() % 2 == 0 || (x == 2650 && y == 6300) {
                tiles.append((14, x, y, Self.distinctTile(x * 100_000 + y, padding: Int(random.next() % 300))))
            }
        }
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles(tiles: tiles)
        let header = try PMTilesHeader(try InputFile.read(path, range: 0...126, limit: 127))
        #expect(header.leafDirectoriesLength > 0, "the fixture needs leaf directories")
        let reader = try PMTilesFileReader(path: path)
        #expect(try reader.tileData(z: 14, x: 2650, y: 6300) != nil)
        #expect(try reader.tileData(z: 14, x: 2519, y: 6300) == nil)
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"),
                                                          camera: CameraOptions(center: LngLat(longitude: -122.4, latitude: 37.8), zoom: 14))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        let leafReads = recorder.requests.compactMap { $0.request.dataRange }.filter {
            $0.lowerBound >= header.leafDirectoriesOffset && $0.lowerBound < header.leafDirectoriesOffset + header.leafDirectoriesLength
        }
        #expect(!leafReads.isEmpty)
        #expect(leafReads.count == Set(leafReads.map { $0.lowerBound }).count, "each leaf directory is read once")
    }

    @Test func truncatedArchiveIsAMapLoadingErrorNamingTheOffset() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        let header = try PMTilesHeader(try InputFile.read(path, range: 0...126, limit: 127))
        let cut = header.metadataOffset + 3
        try FileHandle(forWritingAtPath: path)!.truncate(atOffset: cut)
        let (_, recorder, _) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"))
        let error = try #require(recorder.loadingErrors.first)
        #expect(error.type == .source)
        #expect(error.message.contains("truncated"))
        #expect(error.message.contains("ends at byte \(cut)"))
    }

    @Test func anArchiveCutInItsTileDataFailsThoseTileReadsAndTheCountsAgree() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        let header = try PMTilesHeader(try InputFile.read(path, range: 0...126, limit: 127))
        // Cut inside the tile data: some tiles' bytes run past the end, some are there.
        try FileHandle(forWritingAtPath: path)!.truncate(atOffset: header.tileDataOffset + header.tileDataLength / 2)
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        let summary = recorder.events.reduce(into: LoadSummary()) { $0.record($1) }
        let tileErrors = summary.errors.filter { $0.type == .tile }
        #expect(!tileErrors.isEmpty && tileErrors.count == summary.errors.count)
        #expect(summary.traffic(of: .tile).failures == tileErrors.count, "each failed tile read is one tile error")
        #expect(summary.traffic(of: .source).failures == 0)
        #expect(tileErrors.allSatisfy { $0.message.contains("truncated") || $0.message.contains("past the end") }, "\(tileErrors.map(\.message))")
    }

    @Test func directoryPointingPastTheEndIsAnErrorNotACrash() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        try Self.patchHeader(path) { $0.tileDataOffset += 1_000_000 }
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(!recorder.loadingErrors.isEmpty)
        #expect(recorder.loadingErrors.allSatisfy { $0.message.contains("past the end") })
        // A directory entry beyond the tile data section the header declares is refused before any read.
        try Self.patchHeader(path) { $0.tileDataOffset -= 1_000_000; $0.tileDataLength = 10 }
        let (_, again, _) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"))
        #expect(again.loadingErrors.contains { $0.message.contains("points past the end of the tile data") })
    }

    @Test(arguments: [PMTilesHeader.Compression.brotli, .zstd])
    func unsupportedCompressionIsRefusedByName(_ compression: PMTilesHeader.Compression) async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        try Self.patchHeader(path) { $0.tileCompression = compression }
        let (_, recorder, _) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"))
        let error = try #require(recorder.loadingErrors.first)
        #expect(error.type == .source)
        #expect(error.message.contains("tile compression is \(compression.name)"))
    }

    @Test func notAnArchiveAndRelativeURLsAreClearErrors() async throws {
        let fixture = try ArchiveFixture()
        try fixture.directory.write("sample/notes.pmtiles", "hello, not an archive")
        let (_, recorder, _) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(fixture.path("notes.pmtiles"))"))
        #expect(recorder.loadingErrors.first?.message.contains("not a PMTiles archive") == true)
        let (_, relative, _) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://city.pmtiles"))
        #expect(relative.loadingErrors.first?.message.contains("absolute URL") == true)
    }

    @Test func remoteArchiveReadsRangesOverTheSimulatedNetwork() async throws {
        let fixture = try ArchiveFixture()
        try fixture.writePMTiles()
        let network = SimulatedNetwork(mirrors: [.init(prefix: "https://tiles.example/", directory: fixture.path(""))])
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://https://tiles.example/city.pmtiles"), network: network)
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(recorder.loadingErrors.isEmpty)
        let reads = recorder.requests.filter { $0.request.url == "https://tiles.example/city.pmtiles" }
        #expect(reads.count >= 4)
        #expect(reads.allSatisfy { $0.response?.etag != nil && $0.request.dataRange != nil })
        #expect(recorder.loadedTiles == (await Self.folderTiles()))
    }

    @Test func remoteArchiveThatChangesIsRereadFromTheHeaderNetworkOnly() async throws {
        let fixture = try ArchiveFixture()
        let old = try fixture.writePMTiles("old.pmtiles")
        let new = try fixture.writePMTiles("new.pmtiles", gzip: false)
        // The server has the old archive for the first read (the header), the new one after.
        let server = ChangingArchiveServer(versions: [old, new], changeAfter: 1)
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://https://tiles.example/city.pmtiles"), network: server)
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(recorder.loadingErrors.isEmpty)
        let headers = recorder.requests.filter { $0.request.dataRange == 0...126 }
        #expect(headers.count == 2, "the header is read again after the ETag changed")
        #expect(headers.last?.request.loadingMethod == .network)
        #expect(recorder.loadedTiles == (await Self.folderTiles()))
    }

    @Test func remoteArchiveThatKeepsChangingFailsWithBothETags() async throws {
        let fixture = try ArchiveFixture()
        let old = try fixture.writePMTiles("old.pmtiles")
        let new = try fixture.writePMTiles("new.pmtiles", gzip: false)
        let server = ChangingArchiveServer(versions: [old, new], changeAfter: 1, alternate: true)
        let (_, recorder, _) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://https://tiles.example/city.pmtiles"), network: server)
        let error = try #require(recorder.loadingErrors.first)
        #expect(error.message.contains("changed while it was read"))
    }

    @Test func localArchiveNeedsNoNetworkOffline() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "pmtiles://file://\(path)"), offline: true)
        guard case .reached = outcome else { Issue.record("not idle offline: \(outcome)"); return }
        #expect(recorder.loadingErrors.isEmpty)
        #expect(recorder.requests.allSatisfy { $0.response?.source == .localFile })
    }

    /// A small vector tile of its own: a water layer with one point whose property is `salt`.
    static func distinctTile(_ salt: Int, padding: Int = 0) -> [UInt8] {
        var encoder = VectorTileEncoder()
        encoder.addLayer("water", features: [.init(geometryType: 1, parts: [[(x: 10, y: 10)]],
                                                   properties: [("n", .number(Double(salt))), ("pad", .string(String(repeating: "x", count: padding)))])])
        return encoder.bytes
    }

    /// Rewrites the header of the archive at `path`.
    static func patchHeader(_ path: String, _ edit: (inout PMTilesHeader) -> Void) throws {
        var header = try PMTilesHeader(try InputFile.read(path, range: 0...126, limit: 127))
        edit(&header)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: header.bytes)
        try handle.close()
    }
}

/// A server of one archive URL whose content changes: version 0 for the first `changeAfter`
/// requests, then version 1 (or alternating versions from then on), each with its own ETag.
final class ChangingArchiveServer: ResourceLoader {
    private let versions: [String]
    private let changeAfter: Int
    private let alternate: Bool
    private let served = Mutex(0)

    init(versions: [String], changeAfter: Int, alternate: Bool = false) {
        self.versions = versions
        self.changeAfter = changeAfter
        self.alternate = alternate
    }

    func handles(_ url: String) -> Bool { url.hasPrefix("https://") }

    func load(_ resource: Resource) async -> Response {
        let count = served.withLock { value -> Int in
            value += 1
            return value
        }
        let version = count <= changeAfter ? 0 : (alternate ? count % 2 : 1)
        let path = versions[version]
        guard let range = resource.dataRange, let bytes = try? InputFile.read(path, range: range, limit: 1 << 24) else {
            return .failure(.other, "no range", source: .network)
        }
        return Response(data: bytes, etag: "\"v\(version)\"", source: .network)
    }
}
