import Foundation
import MapSim
import MapSimArchives
import MapSimCache
import MapSimJSON

/// Writes the tiles of one source of an offline region as a tile archive — MBTiles 1.3 or PMTiles
/// v3 — with metadata from the source's stored TileJSON, so that a region mapsim downloaded or
/// checked ships as one file. Rows MapLibre stored zlib-compressed are inflated; vector tiles are
/// written gzip-compressed and declared so, images as they are. A region downloaded for an engine
/// that loads Mapbox imports exports the sources of its imported styles too (`IMPORT/ID`).
public struct RegionArchiveExport {
    /// The archive formats.
    public enum Format: String, Sendable, CaseIterable {
        case mbtiles, pmtiles
    }

    /// What was written.
    public struct Summary: Sendable, Equatable {
        /// The source whose tiles were written, by its name (`RegionArchiveSource.name`).
        public var source: String
        /// How many tiles.
        public var tiles: Int
        /// The tile format (`pbf`, `png`, `jpg`, `webp`).
        public var tileFormat: String
        /// The archive's path.
        public var path: String
    }

    /// The database holding the region.
    public var database: OfflineDatabase
    /// The region.
    public var region: OfflineRegion

    /// An export of `region` from `database`.
    public init(database: OfflineDatabase, region: OfflineRegion) {
        self.database = database
        self.region = region
    }

    /// Writes the tiles of `sourceID` (needed when the region holds tiles of several sources) to
    /// `path` in `format`; `progress` is told the tiles written and the tiles to write.
    public func run(sourceID: String?, format: Format, path: String, progress: (Int, Int) -> Void = { _, _ in }) throws -> Summary {
        let source = try choose(sourceID, among: try RegionArchiveSource.sources(of: region, in: database), templates: try database.regionTileTemplates(region.id))
        let isTMS = source.tileJSON["scheme"]?.stringValue == "tms"
        var ordered: [(id: CanonicalTileID, rowID: Int64)] = []
        for row in try database.regionTiles(region.id, template: source.urlTemplate) {
            let y = isTMS ? (1 << row.z) - 1 - row.y : row.y
            guard (0...PMTilesTileID.maximumZoom).contains(row.z), row.x >= 0, y >= 0, row.x < 1 << row.z, y < 1 << row.z else { continue }
            ordered.append((CanonicalTileID(z: row.z, x: row.x, y: y), row.rowID))
        }
        guard !ordered.isEmpty else {
            throw CacheError(.noSuchRegion, path: database.path, "region \(region.id) holds no tiles of source \"\(source.name)\" in \(database.path): download it first (mapsim region download)")
        }
        switch format {
        case .mbtiles: ordered.sort { ($0.id.z, $0.id.x, $0.id.y) < ($1.id.z, $1.id.x, $1.id.y) }
        case .pmtiles: ordered.sort { PMTilesTileID.id(z: $0.id.z, x: $0.id.x, y: $0.id.y) < PMTilesTileID.id(z: $1.id.z, x: $1.id.x, y: $1.id.y) }
        }
        // The tiles' data is read a batch of rows at a time, in the order they are written.
        var batch: [OfflineDatabase.TileData?] = []
        var batchStart = 0
        func data(_ index: Int) throws -> OfflineDatabase.TileData {
            if index < batchStart || index >= batchStart + batch.count {
                batchStart = index
                batch = try database.tileData(rows: ordered[index..<min(index + Self.readBatch, ordered.count)].lazy.map(\.rowID))
            }
            guard let data = batch[index - batchStart] else {
                throw CacheError(.damaged, path: database.path, "tile row \(ordered[index].rowID) of region \(region.id) lost its data")
            }
            return data
        }
        let tileFormat = Self.format(of: try data(0).body, kind: source.kind)
        let zooms = (ordered.lazy.map(\.id.z).min() ?? 0)...(ordered.lazy.map(\.id.z).max() ?? 0)
        let bounds = Self.bounds(of: source, tiles: ordered.lazy.map(\.id), zooms: zooms)
        var written = 0
        func nextTile(_ index: Int) throws -> [UInt8] {
            let tile = try data(index)
            written += 1
            progress(written, ordered.count)
            // Vector tiles are stored gzip-compressed in both formats, as their specifications say:
            // a row stored deflated keeps its stream, rewrapped, rather than being deflated again.
            guard tileFormat == "pbf", !ZlibCodec.isGzip(tile.body) else { return tile.body }
            if let stream = tile.stream, let member = ZlibCodec.gzip(rewrapping: stream, of: tile.body) { return member }
            guard let compressed = ZlibCodec.deflate(tile.body, format: .gzip) else { throw MBTilesError(.cannotWrite, "gzip failed on tile \(ordered[index].id)") }
            return compressed
        }
        switch format {
        case .mbtiles:
            let writer = try MBTilesWriter(path: path)
            var index = 0
            try writer.write(metadata: Self.mbtilesMetadata(source, format: tileFormat, zooms: zooms, bounds: bounds, region: region)) {
                guard index < ordered.count else { return nil }
                defer { index += 1 }
                let id = ordered[index].id
                return (id.z, id.x, id.y, try nextTile(index))
            }
        case .pmtiles:
            let writer = try PMTilesWriter(path: path)
            writer.header.tileType = PMTilesHeader.TileType.allCases.first { $0.format == tileFormat } ?? .unknown
            writer.header.tileCompression = tileFormat == "pbf" ? .gzip : .none
            writer.header.minZoom = UInt8(zooms.lowerBound)
            writer.header.maxZoom = UInt8(zooms.upperBound)
            writer.header.minLonE7 = Int32((bounds[0] * 10_000_000).rounded())
            writer.header.minLatE7 = Int32((bounds[1] * 10_000_000).rounded())
            writer.header.maxLonE7 = Int32((bounds[2] * 10_000_000).rounded())
            writer.header.maxLatE7 = Int32((bounds[3] * 10_000_000).rounded())
            writer.header.centerZoom = UInt8(zooms.lowerBound)
            writer.header.centerLonE7 = Int32(((bounds[0] + bounds[2]) / 2 * 10_000_000).rounded())
            writer.header.centerLatE7 = Int32(((bounds[1] + bounds[3]) / 2 * 10_000_000).rounded())
            for index in ordered.indices {
                let id = ordered[index].id
                try writer.add(z: id.z, x: id.x, y: id.y, bytes: try nextTile(index))
            }
            try writer.finish(metadata: Self.pmtilesMetadata(source, region: region))
        }
        return Summary(source: source.name, tiles: ordered.count, tileFormat: tileFormat, path: path)
    }

    /// The source to export: the one named — by its name (`ID`, or `IMPORT/ID` for an import's), or
    /// by its id when that is unambiguous — else the only one whose tiles the region holds. Sources
    /// whose tiles are the same (a style imported twice) count as one.
    private func choose(_ sourceID: String?, among sources: [RegionArchiveSource], templates: Set<String>) throws -> RegionArchiveSource {
        func listed(_ sources: [RegionArchiveSource]) -> String { sources.map { "\"\($0.name)\"" }.joined(separator: ", ") }
        /// The first of each set of sources keyed by the same tiles.
        func distinct(_ sources: [RegionArchiveSource]) -> [RegionArchiveSource] {
            var templates = Set<String>()
            return sources.filter { templates.insert($0.urlTemplate).inserted }
        }
        let names = sources.isEmpty ? "none" : listed(sources)
        if let sourceID {
            if let named = sources.first(where: { $0.name == sourceID }) { return named }
            let byID = distinct(sources.filter { $0.id == sourceID })
            guard byID.count == 1, let only = byID.first else {
                if byID.isEmpty { throw CacheError(.noSuchRegion, path: database.path, "the style of region \(region.id) has no tiled source \"\(sourceID)\"; its tiled sources are \(names)") }
                throw CacheError(.noSuchRegion, path: database.path, "several styles of region \(region.id) have a tiled source \"\(sourceID)\" (\(listed(byID))): choose one with --source IMPORT/ID")
            }
            return only
        }
        let held = distinct(sources.filter { templates.contains($0.urlTemplate) })
        guard held.count == 1, let only = held.first else {
            if held.isEmpty { throw CacheError(.noSuchRegion, path: database.path, "region \(region.id) holds no tiles of its style's tiled sources (\(names)) in \(database.path)") }
            throw CacheError(.noSuchRegion, path: database.path, "region \(region.id) holds tiles of several sources (\(listed(held))): choose one with --source ID")
        }
        return only
    }

    /// Tile rows read at a time.
    static let readBatch = 256

    /// The tile format, from the bytes: an image by its signature, else a vector tile.
    static func format(of bytes: [UInt8], kind: StyleSource.Kind) -> String {
        ImageSignature.format(of: bytes) ?? (kind == .vector || ZlibCodec.isGzip(bytes) ? "pbf" : "png")
    }

    /// West, south, east, north: the TileJSON's bounds, else the extent of the tiles at the deepest zoom.
    private static func bounds(of source: RegionArchiveSource, tiles: some Sequence<CanonicalTileID>, zooms: ClosedRange<Int>) -> [Double] {
        if let values = source.tileJSON["bounds"]?.arrayValue?.compactMap(\.numberValue), values.count == 4 { return values }
        let deepest = tiles.lazy.filter { $0.z == zooms.upperBound }
        let n = Double(1 << zooms.upperBound)
        func lon(_ x: Int) -> Double { Double(x) / n * 360 - 180 }
        func lat(_ y: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(y) / n))) * 180 / Double.pi }
        return [lon(deepest.map(\.x).min() ?? 0), lat((deepest.map(\.y).max() ?? 0) + 1), lon((deepest.map(\.x).max() ?? 0) + 1), lat(deepest.map(\.y).min() ?? 0)]
    }

    private static func mbtilesMetadata(_ source: RegionArchiveSource, format: String, zooms: ClosedRange<Int>, bounds: [Double],
                                        region: OfflineRegion) -> [(name: String, value: String)] {
        let tileJSON = source.tileJSON
        func number(_ value: Double) -> String { JSONWriter.formatNumber(value) }
        var rows: [(name: String, value: String)] = [
            ("name", tileJSON["name"]?.stringValue ?? source.id),
            ("format", format),
            ("bounds", bounds.map(number).joined(separator: ",")),
            ("center", [number((bounds[0] + bounds[2]) / 2), number((bounds[1] + bounds[3]) / 2), String(zooms.lowerBound)].joined(separator: ",")),
            ("minzoom", String(zooms.lowerBound)),
            ("maxzoom", String(zooms.upperBound)),
            ("type", "overlay"),
        ]
        for key in ["attribution", "description", "version"] {
            if let value = tileJSON[key]?.stringValue { rows.append((key, value)) }
        }
        if rows.allSatisfy({ $0.name != "description" }), let text = region.metadataText { rows.append(("description", text)) }
        if format == "pbf" {
            var json = JSONObject()
            json["vector_layers"] = tileJSON["vector_layers"] ?? .array([])
            rows.append(("json", JSONWriter.string(.object(json))))
        }
        return rows
    }

    private static func pmtilesMetadata(_ source: RegionArchiveSource, region: OfflineRegion) -> JSONObject {
        var metadata = JSONObject()
        metadata["name"] = source.tileJSON["name"] ?? .string(source.id)
        for key in ["attribution", "description", "version", "vector_layers"] {
            if let value = source.tileJSON[key] { metadata[key] = value }
        }
        if metadata["description"] == nil, let text = region.metadataText { metadata["description"] = .string(text) }
        return metadata
    }
}
