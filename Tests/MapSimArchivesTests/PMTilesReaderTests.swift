import Foundation
import MapSimJSON
@testable import MapSim
import MapSimArchives
import MapSimTesting
import Testing

/// `PMTilesReader`'s transitions, input by input: the ranges it asks for, what it shares, keeps,
/// cancels and delivers, read from an archive written here from the sample's tiles.
@Suite struct PMTilesReaderTests {
    private let fixture: ArchiveFixture
    private let path: String
    private let bytes: [UInt8]
    private let tiles: [(z: Int, x: Int, y: Int, bytes: [UInt8])]

    init() throws {
        fixture = try ArchiveFixture()
        path = try fixture.writePMTiles()
        bytes = try InputFile.read(path, limit: 1 << 26)
        tiles = try ArchiveFixture.sampleTiles().sorted { ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) }
    }

    private var url: String { "pmtiles://file://\(path)" }

    private func tile(_ index: Int) -> (purpose: RequestPurpose, resource: Resource, bytes: [UInt8]) {
        let tile = tiles[index]
        let id = CanonicalTileID(z: tile.z, x: tile.x, y: tile.y)
        let resource = Resource(url: url, kind: .tile, tileData: .init(urlTemplate: url, pixelRatio: 1, id: id))
        return (.tile("city", TileKey(canonical: id, wrap: 0)), resource, tile.bytes)
    }

    /// The archive's answer to `read`, final, with `etag`.
    private func answer(_ read: ArchiveRead, etag: String? = nil) -> PMTilesReader.Input {
        let range = Int(read.range.lowerBound)...Int(min(read.range.upperBound, UInt64(bytes.count - 1)))
        return .answer(read, Response(data: Array(bytes[range]), etag: etag, source: .localFile), final: true)
    }

    private static func reads(_ actions: [PMTilesReader.Action]) -> [ArchiveRead] {
        actions.compactMap { if case .read(let read, _) = $0 { read } else { nil } }
    }

    /// Answers every read until the reader delivers; returns the ranges read and the deliveries.
    private func run(_ reader: inout PMTilesReader, from actions: [PMTilesReader.Action], etag: String? = nil)
        -> (ranges: [ClosedRange<UInt64>], delivered: [(RequestPurpose, Response)]) {
        var pending = actions
        var ranges: [ClosedRange<UInt64>] = []
        var delivered: [(RequestPurpose, Response)] = []
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .read(let read, _):
                ranges.append(read.range)
                pending += reader.handle(answer(read, etag: etag), at: .zero)
            case .deliver(let purpose, _, let response, _):
                delivered.append((purpose, response))
            case .cancelRead:
                break
            }
        }
        return (ranges, delivered)
    }

    @Test func aTileIsTheHeaderThenTheRootDirectoryThenItsBytesAndWhatWasReadIsKept() throws {
        var reader = PMTilesReader()
        let first = tile(0)
        let start = reader.handle(.request(first.purpose, first.resource), at: .zero)
        #expect(Self.reads(start).map(\.range) == [0...126], "the header first")
        let (ranges, delivered) = run(&reader, from: start)
        let header = try PMTilesHeader(Array(bytes[0...126]))
        #expect(ranges.count == 3 && ranges[1] == header.rootDirectoryOffset...(header.rootDirectoryOffset + header.rootDirectoryLength - 1))
        #expect(ranges[2].lowerBound >= header.tileDataOffset, "then the tile's bytes")
        #expect(delivered.count == 1 && delivered[0].0 == first.purpose && delivered[0].1.error == nil)
        #expect(!reader.isReading(first.purpose))
        // The next tile reads only its bytes: the header and the root are kept.
        let second = tile(1)
        let next = run(&reader, from: reader.handle(.request(second.purpose, second.resource), at: .zero))
        #expect(next.ranges.count == 1 && next.ranges[0].lowerBound >= header.tileDataOffset)
        #expect(next.delivered.first?.1.data != nil)
    }

    @Test func twoJobsShareOneReadAndCancellingTheLastWaiterCancelsIt() {
        var reader = PMTilesReader()
        let (a, b) = (tile(0), tile(1))
        let started = reader.handle(.request(a.purpose, a.resource), at: .zero)
        #expect(reader.handle(.request(b.purpose, b.resource), at: .zero).isEmpty, "the second job waits on the same header read")
        let header = Self.reads(started)[0]
        #expect(reader.handle(.cancel(a.purpose), at: .zero).isEmpty, "the read still has a waiter")
        #expect(reader.handle(.cancel(b.purpose), at: .zero) == [.cancelRead(header)])
        #expect(reader.handle(answer(header), at: .zero).isEmpty, "an answer nobody waits for delivers nothing")
    }

    @Test func aChangedETagStartsOverFromTheNetworkAndASecondChangeInARowFails() {
        var reader = PMTilesReader()
        let job = tile(0)
        let header = Self.reads(reader.handle(.request(job.purpose, job.resource), at: .zero))[0]
        let root = reader.handle(answer(header, etag: "\"v1\""), at: .zero)
        let changed = reader.handle(answer(Self.reads(root)[0], etag: "\"v2\""), at: .zero)
        guard case .read(let again, let resource)? = changed.first else { Issue.record("no new read: \(changed)"); return }
        #expect(again.range == 0...126 && resource.loadingMethod == .network, "from the header again, network-only")
        let rootAgain = reader.handle(answer(again, etag: "\"v2\""), at: .zero)
        let failed = reader.handle(answer(Self.reads(rootAgain)[0], etag: "\"v3\""), at: .zero)
        guard case .deliver(_, _, let response, final: true)? = failed.first else { Issue.record("not failed: \(failed)"); return }
        #expect(response.error?.message.contains("changed while it was read") == true)
    }

    @Test func aURLWithoutASchemeAndAPurposeNotASourcesAreRefusedWithWhy() {
        var reader = PMTilesReader()
        let relative = Resource(url: "pmtiles://city.pmtiles", kind: .source)
        guard case .deliver(_, _, let response, final: true)? = reader.handle(.request(.metadata("city"), relative), at: .zero).first else {
            Issue.record("no answer"); return
        }
        #expect(response.error?.message.contains("names an absolute URL") == true)
        let glyphs = reader.handle(.request(.glyphs(GlyphRangeKey(fontStack: ["a"], start: 0)), Resource(url: url, kind: .glyphs)), at: .zero)
        guard case .deliver(_, _, let refused, final: true)? = glyphs.first else { Issue.record("no answer"); return }
        #expect(refused.error?.message.contains("only a source's url reads it") == true)
    }

    @Test func aTileOutsideTheArchivesZoomsHasNoContentAndAFailedReadIsPassedOnNamingTheRange() {
        var reader = PMTilesReader()
        let id = CanonicalTileID(z: 0, x: 0, y: 0)
        let outside = Resource(url: url, kind: .tile, tileData: .init(urlTemplate: url, pixelRatio: 1, id: id))
        let purpose = RequestPurpose.tile("city", TileKey(canonical: id, wrap: 0))
        let (_, delivered) = run(&reader, from: reader.handle(.request(purpose, outside), at: .zero))
        #expect(tiles.allSatisfy { $0.z > 0 } ? delivered.first?.1.noContent == true : true)
        let job = tile(0)
        let header = Self.reads(reader.handle(.request(job.purpose, job.resource), at: .zero))
        // The header is kept: the job goes straight to its bytes; that read fails and is retried.
        let failure = Response.failure(.connection, "reset", source: .localFile)
        let passed = reader.handle(.answer(header[0], failure, final: false), at: .zero)
        guard case .deliver(_, _, let relayed, final: false)? = passed.first else { Issue.record("not relayed: \(passed)"); return }
        #expect(relayed.error?.message.contains("at bytes \(header[0].range.lowerBound)") == true)
        #expect(reader.isReading(job.purpose), "a failure the pipeline retries keeps the job")
    }
}
