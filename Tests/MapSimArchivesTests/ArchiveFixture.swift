import Foundation
import MapSim
import MapSimArchives
import MapSimJSON
import MapSimTesting

/// A copy of the sample style whose source reads a tile archive made here from the sample's tiles.
struct ArchiveFixture {
    let directory: FixtureDirectory

    init() throws {
        directory = try FixtureDirectory()
        try directory.copy(folder: SampleStyle.folder, to: "sample")
    }

    /// The sample's tiles: z/x/y and the vector tile's bytes (uncompressed).
    static func sampleTiles() throws -> [(z: Int, x: Int, y: Int, bytes: [UInt8])] {
        let root = SampleStyle.folder + "/tiles"
        var tiles: [(z: Int, x: Int, y: Int, bytes: [UInt8])] = []
        for z in try FileManager.default.contentsOfDirectory(atPath: root) {
            for x in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(z)") {
                for file in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(z)/\(x)") where file.hasSuffix(".pbf") {
                    let bytes = try InputFile.read("\(root)/\(z)/\(x)/\(file)", limit: 1 << 24)
                    tiles.append((Int(z)!, Int(x)!, Int(file.dropLast(4))!, bytes))
                }
            }
        }
        return tiles
    }

    /// The sample's TileJSON as metadata.
    static func sampleMetadata() throws -> JSONObject {
        guard case .object(var object) = try JSONParser.parse(try InputFile.read(SampleStyle.folder + "/tiles.json", limit: 1 << 20)) else {
            fatalError("the sample's tiles.json is not an object")
        }
        for key in ["tiles", "tilejson", "minzoom", "maxzoom", "bounds"] { object[key] = nil }
        return object
    }

    /// Writes the sample's tiles (or `tiles`) as a PMTiles archive `name` in the style's folder; `edit`
    /// may change the header before it is written.
    @discardableResult
    func writePMTiles(_ name: String = "city.pmtiles", tiles: [(z: Int, x: Int, y: Int, bytes: [UInt8])]? = nil, gzip: Bool = true,
                      edit: (inout PMTilesHeader) -> Void = { _ in }) throws -> String {
        let path = directory.path + "/sample/" + name
        let writer = try PMTilesWriter(path: path)
        let all = try tiles ?? Self.sampleTiles()
        writer.header.tileType = .mvt
        writer.header.tileCompression = gzip ? .gzip : .none
        writer.header.minZoom = UInt8(all.map(\.z).min() ?? 0)
        writer.header.maxZoom = UInt8(all.map(\.z).max() ?? 0)
        writer.header.minLonE7 = -1_226_200_000
        writer.header.minLatE7 = 377_000_000
        writer.header.maxLonE7 = -1_222_800_000
        writer.header.maxLatE7 = 379_000_000
        edit(&writer.header)
        for tile in all.sorted(by: { PMTilesTileID.id(z: $0.z, x: $0.x, y: $0.y) < PMTilesTileID.id(z: $1.z, x: $1.x, y: $1.y) }) {
            try writer.add(z: tile.z, x: tile.x, y: tile.y, bytes: gzip ? ZlibCodec.deflate(tile.bytes, format: .gzip)! : tile.bytes)
        }
        try writer.finish(metadata: try Self.sampleMetadata())
        return path
    }

    /// Writes the sample's tiles as an MBTiles file `name` in the style's folder, gzip-compressed.
    @discardableResult
    func writeMBTiles(_ name: String = "city.mbtiles", metadata: [(name: String, value: String)]? = nil) throws -> String {
        let path = directory.path + "/sample/" + name
        let tiles = try Self.sampleTiles()
        var index = 0
        let rows = try metadata ?? [
            ("name", "Mapsim City"), ("format", "pbf"), ("bounds", "-122.62,37.7,-122.28,37.9"), ("minzoom", "0"), ("maxzoom", "11"),
            ("attribution", "mapsim sample data (generated)"),
            ("json", JSONWriter.string(.object(JSONObject([("vector_layers", Self.sampleMetadata()["vector_layers"] ?? .null)])))),
        ]
        try MBTilesWriter(path: path).write(metadata: rows) {
            guard index < tiles.count else { return nil }
            defer { index += 1 }
            return (tiles[index].z, tiles[index].x, tiles[index].y, ZlibCodec.deflate(tiles[index].bytes, format: .gzip)!)
        }
        return path
    }

    /// The sample style with its source reading `sourceURL`; returns the style's URL.
    func style(sourceURL: String, name: String = "archive-style.json") throws -> String {
        var text = String(decoding: try InputFile.read(SampleStyle.folder + "/style.json", limit: 1 << 20), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"url\": \"tiles.json\"", with: "\"url\": \"\(sourceURL)\"")
        try directory.write("sample/" + name, text)
        return directory.url("sample/" + name)
    }

    /// The absolute path of `name` in the style's folder.
    func path(_ name: String) -> String { directory.path + "/sample/" + name }
}
