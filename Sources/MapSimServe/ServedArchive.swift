import Foundation
import MapSim
import MapSimArchives
import MapSimJSON
import Synchronization

/// A tile archive a style's source reads (`mbtiles://` or `pmtiles://`), as `mapsim serve` serves
/// it to clients that read no archive, the way tileserver-gl serves one: a TileJSON (the one
/// MapLibre Native makes of the archive) whose `tiles` point to the server, and each tile at
/// `z/x/y.FORMAT`, inflated as a map gets it — the server gzips it again for a client that asks.
final class ServedArchive: Sendable {
    /// The archive's file.
    let path: String
    /// The tiles' file extension: `pbf`, `png`, `jpg`, `webp`…
    let format: String
    /// The file's modification time, every tile's `Last-Modified`.
    let modified: HTTPDate
    /// The reader of an MBTiles file (it serialises its own reads).
    private let mbtiles: MBTilesArchive?
    /// The reader of a PMTiles file, one read at a time.
    private let pmtiles: Mutex<PMTilesFileReader?>
    private let tileJSONObject: JSONObject

    /// The archive of a source's `url`: `mbtiles://PATH` or `pmtiles://file://PATH` (or
    /// `pmtiles://PATH`), a relative PATH taken from `folder`; nil when `url` names no local
    /// archive, an error naming the file when it cannot be read.
    init?(url: String, folder: String) throws(ServeError) {
        guard let scheme = URLResolver.scheme(of: url), scheme == "mbtiles" || scheme == "pmtiles" else { return nil }
        var rest = String(url.dropFirst(scheme.count + 3))
        if scheme == "pmtiles" {
            guard URLResolver.scheme(of: rest) == "file" || !rest.contains("://") else { return nil }
            if rest.hasPrefix("file://") { rest.removeFirst("file://".count) }
        }
        rest = String(rest.prefix { $0 != "?" })
        guard let decoded = rest.removingPercentEncoding, !decoded.isEmpty else { throw ServeError(.invalid, "\(url): not a path to an archive") }
        path = decoded.hasPrefix("/") ? decoded : folder + "/" + decoded
        var status = stat()
        guard stat(path, &status) == 0 else { throw ServeError(.unreadable, "\(url): no archive at \(path)") }
        modified = HTTPDate(secondsSince1970: Int64(status.st_mtim.tv_sec))
        do {
            if scheme == "mbtiles" {
                let archive = try MBTilesArchive(path: path)
                let json = try JSONParser.parse(try archive.tileJSON(url: "mbtiles://" + path))
                mbtiles = archive
                pmtiles = Mutex(nil)
                tileJSONObject = json.objectValue ?? JSONObject()
                format = json["format"]?.stringValue ?? "pbf"
            } else {
                let file = try PMTilesFileReader(path: path)
                let metadata = try file.metadata()
                let json = try JSONParser.parse(try PMTilesTileJSON.make(url: url, header: file.header, metadata: metadata))
                format = file.header.tileType.format
                tileJSONObject = json.objectValue ?? JSONObject()
                mbtiles = nil
                pmtiles = Mutex(file)
            }
        } catch {
            throw ServeError(.invalid, "\(url): \(error)", underlying: error)
        }
    }

    /// The TileJSON with its one tile URL `tiles`.
    func tileJSON(tiles: String) -> [UInt8] {
        var object = tileJSONObject
        object["tiles"] = .array([.string(tiles)])
        return Array(JSONWriter.string(.object(object)).utf8)
    }

    /// Tile `z/x/y` as a map gets it; nil when the archive has none.
    func tile(z: Int, x: Int, y: Int) throws(ServeError) -> [UInt8]? {
        do {
            if let mbtiles { return try mbtiles.tile(z: z, x: x, y: y) }
            return try pmtiles.withLock { file throws(PMTilesError) in try file?.tile(z: z, x: x, y: y) }
        } catch {
            throw ServeError(.invalid, "\(path): tile \(z)/\(x)/\(y): \(error)", underlying: error)
        }
    }
}
