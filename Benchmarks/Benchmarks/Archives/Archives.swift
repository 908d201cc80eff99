import Benchmark
import Foundation
import MapSim
import MapSimArchives
import MapSimTesting

/// Random tile reads in-process from a local PMTiles archive and an MBTiles file of 100,000 tiles
/// each (zoom 17 around San Francisco, every tile distinct: a real sample tile, gzip-compressed,
/// with its number appended), 100,000 reads an iteration. `MAPSIM_PMTILES` / `MAPSIM_MBTILES` read
/// an archive made elsewhere instead (`archive-readers.py` makes one with the official PMTiles
/// writer and times the official Python reader on it, for the ratio).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(30), maxIterations: 10)

    let side = 317 // 317 × 317 = 100,489 tiles
    let origin = (x: 20_960, y: 50_660)

    func tiles() throws -> [(z: Int, x: Int, y: Int, bytes: [UInt8])] {
        let sample = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))
        let compressed = ZlibCodec.deflate(sample, format: .gzip)!
        var all: [(z: Int, x: Int, y: Int, bytes: [UInt8])] = []
        all.reserveCapacity(side * side)
        for dx in 0..<side {
            for dy in 0..<side {
                let n = dx * side + dy
                all.append((17, origin.x + dx, origin.y + dy, compressed + withUnsafeBytes(of: UInt32(n).littleEndian, Array.init)))
            }
        }
        return all
    }

    func keys(_ count: Int) -> [(x: Int, y: Int)] {
        var random = SplitMix64(seed: 42)
        return (0..<count).map { _ in (origin.x + Int(random.next() % UInt64(side)), origin.y + Int(random.next() % UInt64(side))) }
    }

    let folder = try! FixtureDirectory()
    let pmtilesPath = ProcessInfo.processInfo.environment["MAPSIM_PMTILES"] ?? {
        let path = folder.path + "/bench.pmtiles"
        let writer = try! PMTilesWriter(path: path)
        writer.header.tileType = .mvt
        writer.header.tileCompression = .gzip
        writer.header.minZoom = 17
        writer.header.maxZoom = 17
        for tile in try! tiles().sorted(by: { PMTilesTileID.id(z: $0.z, x: $0.x, y: $0.y) < PMTilesTileID.id(z: $1.z, x: $1.x, y: $1.y) }) {
            try! writer.add(z: tile.z, x: tile.x, y: tile.y, bytes: tile.bytes)
        }
        try! writer.finish(metadata: .init())
        return path
    }()
    let mbtilesPath = ProcessInfo.processInfo.environment["MAPSIM_MBTILES"] ?? {
        let path = folder.path + "/bench.mbtiles"
        let all = try! tiles()
        var index = 0
        try! MBTilesWriter(path: path).write(metadata: [("name", "bench"), ("format", "pbf")]) {
            guard index < all.count else { return nil }
            defer { index += 1 }
            return all[index]
        }
        return path
    }()
    let reads = keys(100_000)

    Benchmark("PMTiles random tile reads, 100k-tile archive") { benchmark in
        let reader = try PMTilesFileReader(path: pmtilesPath)
        benchmark.startMeasurement()
        var bytes = 0
        for key in reads { bytes += try reader.tileData(z: 17, x: key.x, y: key.y)?.count ?? 0 }
        blackHole(bytes)
        withExtendedLifetime(folder) {}
    }

    Benchmark("MBTiles random tile reads, 100k-tile file") { benchmark in
        let archive = try MBTilesArchive(path: mbtilesPath)
        benchmark.startMeasurement()
        var bytes = 0
        for key in reads { bytes += try archive.tileData(z: 17, x: key.x, y: key.y)?.count ?? 0 }
        blackHole(bytes)
        withExtendedLifetime(folder) {}
    }
}
