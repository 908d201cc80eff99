import MapSim
import Synchronization

/// Answers `mbtiles://` URLs from local MBTiles files, as MapLibre Native's MBTiles file source
/// does: `mbtiles:///ABS/PATH.mbtiles` is the source's TileJSON, `…?file={x}/{y}/{z}.FORMAT` (or
/// any request with tile data) a tile; a missing tile is no content; a relative path is refused.
/// Each file is opened once, read-only, and kept open while the loader lives.
public final class MBTilesResourceLoader: ResourceLoader {
    private let opened = Mutex<[String: MBTilesArchive]>([:])
    /// The most files kept open at once.
    private static let capacity = 32

    /// A loader with no file open yet.
    public init() {}

    public func handles(_ url: String) -> Bool {
        URLResolver.scheme(of: url) == "mbtiles"
    }

    public func load(_ resource: Resource) async -> Response {
        let url = resource.url
        var rest = String(url.dropFirst("mbtiles://".count))
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = String(rest[..<mark])
        }
        guard let path = rest.removingPercentEncoding else {
            return .failure(.other, "invalid percent-encoding in \(url)", source: .localFile)
        }
        guard path.hasPrefix("/") else {
            return .failure(.other, "\(url): an mbtiles:// URL takes an absolute path (mbtiles:///path/to/tiles.mbtiles), as MapLibre Native's does", source: .localFile)
        }
        do {
            let archive = try archive(at: path)
            if let tile = resource.tileData?.id ?? Self.tileParameter(query) {
                guard let bytes = try archive.tile(z: tile.z, x: tile.x, y: tile.y) else { return Response(noContent: true, source: .localFile) }
                return .success(bytes, source: .localFile)
            }
            return .success(try archive.tileJSON(url: "mbtiles://" + rest), source: .localFile)
        } catch {
            return .failure(error.code == .missing ? .notFound : .other, error.message, source: .localFile)
        }
    }

    /// The tile of a `file=X/Y/Z.FORMAT` query, as the TileJSON's tile URL has it.
    private static func tileParameter(_ query: String) -> CanonicalTileID? {
        for pair in query.split(separator: "&") where pair.hasPrefix("file=") {
            let numbers = pair.dropFirst(5).split(separator: "/").map { Int($0.prefix { $0.isNumber }) }
            guard numbers.count == 3, let x = numbers[0], let y = numbers[1], let z = numbers[2] else { return nil }
            return CanonicalTileID(checkedZ: z, x: x, y: y)
        }
        return nil
    }

    private func archive(at path: String) throws(MBTilesError) -> MBTilesArchive {
        if let archive = opened.withLock({ $0[path] }) { return archive }
        let archive = try MBTilesArchive(path: path)
        opened.withLock { files in
            if files.count >= Self.capacity { files.removeAll() }
            files[path] = archive
        }
        return archive
    }
}
