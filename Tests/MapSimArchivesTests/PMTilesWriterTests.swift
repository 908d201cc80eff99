import Foundation
import MapSim
import MapSimArchives
import MapSimJSON
import MapSimTesting
import Testing

/// The PMTiles writer, the file reader, tile ids and directories against the specification.
@Suite struct PMTilesWriterTests {
    @Test func tileIDsFollowTheSpecification() {
        // The specification's examples: zoom by zoom, Hilbert order inside a zoom.
        #expect(PMTilesTileID.id(z: 0, x: 0, y: 0) == 0)
        #expect(PMTilesTileID.id(z: 1, x: 0, y: 0) == 1)
        #expect(PMTilesTileID.id(z: 1, x: 0, y: 1) == 2)
        #expect(PMTilesTileID.id(z: 1, x: 1, y: 1) == 3)
        #expect(PMTilesTileID.id(z: 1, x: 1, y: 0) == 4)
        #expect(PMTilesTileID.id(z: 2, x: 0, y: 0) == 5)
        #expect(PMTilesTileID.id(z: 12, x: 3423, y: 1763) == 19_078_479)
        var random = SplitMix64(seed: 7)
        for z in [5, 14, 20, 27, 31] {
            for _ in 0..<200 {
                let x = Int(random.next() % UInt64(1 << z))
                let y = Int(random.next() % UInt64(1 << z))
                let tile = PMTilesTileID.tile(PMTilesTileID.id(z: z, x: x, y: y))
                #expect(tile == (z, x, y))
            }
        }
    }

    @Test func directoriesRoundTripAndFindRuns() throws {
        let entries = [PMTilesEntry(tileID: 0, offset: 0, length: 10, runLength: 1),
                       PMTilesEntry(tileID: 5, offset: 10, length: 20, runLength: 3),
                       PMTilesEntry(tileID: 100, offset: 0, length: 10, runLength: 1),
                       PMTilesEntry(tileID: 200, offset: 500, length: 64, runLength: 0)]
        let directory = try PMTilesDirectory(decoding: PMTilesDirectory(entries: entries).encoded)
        #expect(directory.entries == entries)
        #expect(directory.entry(for: 6)?.offset == 10)
        #expect(directory.entry(for: 8) == nil)
        #expect(directory.entry(for: 250)?.runLength == 0, "an id after a leaf pointer falls in that leaf")
        #expect(throws: PMTilesError.self) { try PMTilesDirectory(decoding: [0xFF, 0xFF]) }
        #expect(throws: PMTilesError.self) { try PMTilesDirectory(decoding: [200, 1, 1]) }
        // Two entries, the second's offset "follows the first", whose offset and length overflow 64 bits.
        let overflowing: [UInt8] = [2, 1, 1, 1, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1] + Array(repeating: 0xFF, count: 9) + [0x01, 0]
        #expect(throws: PMTilesError("an offset of the directory overflows: it is malformed"), "past 2^64 is malformed, not a trap") {
            try PMTilesDirectory(decoding: overflowing)
        }
    }

    @Test func writtenArchiveReadsBackDedupedClusteredAndDeterministic() throws {
        let fixture = try ArchiveFixture()
        let tiles = try ArchiveFixture.sampleTiles()
        let first = try fixture.writePMTiles("a.pmtiles")
        let second = try fixture.writePMTiles("b.pmtiles")
        #expect(try InputFile.read(first, limit: 1 << 24) == InputFile.read(second, limit: 1 << 24), "the same tiles give the same bytes")
        let reader = try PMTilesFileReader(path: first)
        #expect(reader.header.isClustered)
        #expect(reader.header.tileCompression == .gzip)
        #expect(reader.header.addressedTiles == UInt64(tiles.count))
        for tile in tiles {
            #expect(try reader.tile(z: tile.z, x: tile.x, y: tile.y) == tile.bytes)
        }
        #expect(try reader.tile(z: 11, x: 0, y: 0) == nil)
        guard case .object(let metadata) = try JSONParser.parse(try reader.metadata()) else { Issue.record("metadata is not an object"); return }
        #expect(metadata["name"]?.stringValue == "Mapsim City")
    }

    @Test func identicalTilesAreStoredOnceAsRuns() throws {
        let fixture = try ArchiveFixture()
        let ocean = PMTilesSourceTests.distinctTile(0)
        let tiles = (0..<64).map { index -> (z: Int, x: Int, y: Int, bytes: [UInt8]) in
            let (z, x, y) = PMTilesTileID.tile(PMTilesTileID.id(z: 3, x: 0, y: 0) + UInt64(index))
            return (z, x, y, ocean)
        }
        let path = try fixture.writePMTiles(tiles: tiles, gzip: false)
        let reader = try PMTilesFileReader(path: path)
        #expect(reader.header.tileContents == 1)
        #expect(reader.header.tileEntries == 1)
        #expect(reader.header.addressedTiles == 64)
        #expect(try reader.tile(z: 3, x: 7, y: 7) == ocean)
    }

    @Test func theFileReaderNamesDamage() throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writePMTiles()
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        try FileHandle(forWritingAtPath: path)!.truncate(atOffset: UInt64(size - 10))
        let reader = try PMTilesFileReader(path: path)
        let errors = try ArchiveFixture.sampleTiles().compactMap { tile -> String? in
            do { _ = try reader.tile(z: tile.z, x: tile.x, y: tile.y); return nil } catch { return (error as? PMTilesError)?.message ?? "\(error)" }
        }
        #expect(errors.count >= 1)
        #expect(errors.allSatisfy { $0.contains("truncated") && $0.contains("ends at byte \(size - 10)") })
        try FileHandle(forWritingAtPath: path)!.truncate(atOffset: 60)
        #expect { try PMTilesFileReader(path: path) } throws: { ($0 as? PMTilesError)?.message.contains("truncated") == true }
    }
}
