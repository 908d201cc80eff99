import Foundation
import Testing
import MapSimTesting
@testable import MapSim

@Suite("VectorTile")
struct VectorTileTests {
    private func sampleTile() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))
    }

    @Test func decodesTheSampleTiles() throws {
        let tile = try VectorTile.decode(try sampleTile())
        #expect(tile.layers.map(\.name) == ["water", "parks", "roads", "places", "pois"])
        let pois = try #require(tile.layer(named: "pois"))
        #expect(pois.extent == 4096)
        let names = pois.features.compactMap { $0.property("name")?.stringValue }
        #expect(names.contains("Café Lumière"))
        #expect(pois.features.allSatisfy { $0.geometryType == .point })
    }

    @Test func reportsTruncationInsteadOfCrashing() throws {
        let bytes = try sampleTile()
        for length in stride(from: 1, to: bytes.count - 1, by: max(1, bytes.count / 40)) {
            #expect(throws: LoadingError.self) { try VectorTile.decode(Array(bytes[0..<length])) }
        }
    }

    @Test func encoderAndDecoderAgree() throws {
        var encoder = VectorTileEncoder()
        encoder.addLayer("labels", points: [[("name", "A")], [("name", "B"), ("kind", "x")]])
        let tile = try VectorTile.decode(encoder.bytes)
        #expect(tile.layers.count == 1)
        #expect(tile.layers[0].features.map { $0.property("name") } == [.string("A"), .string("B")])
    }

    @Test func refusesGzipWithAClearMessage() {
        #expect(throws: LoadingError.self) { try VectorTile.decode([0x1F, 0x8B, 8, 0]) }
    }
}

@Suite("SpriteIndex")
struct SpriteIndexTests {
    @Test func readsImagesAndDropsOnesOutsideTheSheet() throws {
        let json = Array(#"{"a": {"x": 0, "y": 0, "width": 10, "height": 10, "pixelRatio": 2}, "b": {"x": 40, "y": 0, "width": 20, "height": 10}}"#.utf8)
        let index = try SpriteIndex.parse(json, sheet: PNGHeader(width: 50, height: 10))
        #expect(index.names == ["a"])
        #expect(index.outOfBounds == ["b"])
        #expect(index.images[0].image.pixelRatio == 2)
    }

    @Test(arguments: [#"[]"#, #"{"a": 1}"#, #"{"a": {"x": -1, "y": 0, "width": 1, "height": 1}}"#, #"{"a": {"x": 0}}"#, "{"])
    func rejectsMalformedIndexes(json: String) {
        #expect(throws: LoadingError.self) { try SpriteIndex.parse(Array(json.utf8)) }
    }

    @Test func readsThePNGSizeOfTheSampleSprite() throws {
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/sprite@2x.png")))
        #expect(try PNGHeader.read(png) == PNGHeader(width: 144, height: 48))
        #expect(throws: LoadingError.self) { try PNGHeader.read(Array(png[0..<20])) }
        #expect(throws: LoadingError.self) { try PNGHeader.read(Array("GIF89a".utf8)) }
    }
}

@Suite("GlyphSet")
struct GlyphSetTests {
    @Test func decodesTheSampleGlyphs() throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/glyphs/Mapsim Sans Regular/256-511.pbf")))
        let glyphs = try GlyphSet.decode(data)
        #expect(glyphs.fontStack == "Mapsim Sans Regular")
        #expect(glyphs.codePoints.contains(0x141))
        #expect(try GlyphSet.decode([]).codePoints.isEmpty)
        #expect(throws: LoadingError.self) { try GlyphSet.decode(Array(data[0..<(data.count / 2)])) }
    }
}
